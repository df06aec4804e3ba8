import { packScanners } from '../environments/registry';
import type { Transcript } from '../transcript/model';
import { repeatedCall, refusal, truncated } from './behaviour';
import { authError, callOutputs, errorStatus, invalidTool, toolError } from './errors';
import type { ScanSettings } from './settings';
import { noFinalAnswer, toolCallAsText } from './toolText';
import type { ScanMark } from './types';

/** Where one kind explains another on the same rollout, only the more specific is reported: specific → the kind it hides. */
export const MORE_SPECIFIC: Readonly<Record<string, string>> = {
  'auth-error': 'error-status',
  'invalid-tool': 'tool-error',
  'tool-call-as-text': 'no-final-answer',
};

/** Every kind the generic scanners and the transcript's pack find in one rollout, at most one mark per kind. */
export function scanRollout(t: Transcript, settings: Pick<ScanSettings, 'repeatedCalls'>): ScanMark[] {
  const outputs = callOutputs(t);
  const found = [
    authError(t, outputs),
    errorStatus(t),
    invalidTool(t, outputs),
    toolError(t),
    toolCallAsText(t),
    repeatedCall(t, settings.repeatedCalls),
    truncated(t),
    noFinalAnswer(t),
    refusal(t),
  ].filter((m): m is ScanMark => !!m);
  for (const scanner of packScanners(t)) {
    const seen = scanner.scan(t);
    if (seen) found.push({ kind: scanner.kind, ...seen });
  }
  const hidden = new Set(found.map((m) => MORE_SPECIFIC[m.kind]));
  return hidden.size ? found.filter((m) => !hidden.has(m.kind)) : found;
}
