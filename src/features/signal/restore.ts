// What a learning-signal report saved before a window reload comes back through here, read field by field.
import type { SignalCheckKey } from '../../services/signal/checks';
import type { SignalSource } from '../../shared/signal';
import { keptSource } from './kept';

export const isKey = (value: unknown): value is SignalCheckKey => {
  const k = value as Partial<SignalCheckKey> | null;
  return !!k && typeof k.dataset === 'string' && typeof k.runtime === 'string' && typeof k.reward === 'string';
};

/** A source a window reload gave back, checked field by field: the page's state is not trusted blindly. */
export function restoredSource(value: unknown): SignalSource | undefined {
  const s = value as Partial<Record<string, unknown>> | null;
  if (!s || typeof s.label !== 'string') return undefined;
  if (s.kind === 'file' && typeof s.uri === 'string') return { kind: 'file', uri: s.uri, label: s.label };
  if (s.kind === 'job' && typeof s.jobName === 'string' && typeof s.region === 'string')
    return { kind: 'job', jobName: s.jobName, region: s.region, label: s.label };
  if (s.kind === 'kept' && isKey(s.key)) return keptSource(s.key);
  return undefined;
}
