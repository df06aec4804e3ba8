import type { ToolCall, Transcript } from '../transcript/model';
import { evidence } from './text';
import type { ScanMark } from './types';

// How the model behaved: calls repeated without progress, a reply cut at the token limit, a refusal.

/** Finish reasons that mean the token limit (OpenAI, Anthropic, Bedrock, Gemini). */
const AT_LIMIT = new Set(['length', 'max_tokens', 'max_output_tokens', 'max_tokens_reached', 'model_length']);

/** Declining the task in the first words of the final reply. */
const REFUSAL =
  /\b(?:I(?:'m| am) (?:sorry|afraid),? (?:but )?I (?:can(?:'|no)t|am unable to|won't)|I (?:can(?:'|no)t|won't|will not|am unable to|'m unable to) (?:help|assist|comply|provide|do that|fulfil?l)|As an AI(?: language model)?,? I (?:can(?:'|no)t|am unable))/i;
const REFUSAL_CHARS = 400;

/** Equal values, compared without turning them into text: a flat object's values one by one, deeper ones as JSON. */
function same(a: unknown, b: unknown): boolean {
  if (a === b) return true;
  if (!a || !b || typeof a !== 'object' || typeof b !== 'object' || Array.isArray(a) !== Array.isArray(b)) return false;
  const x = a as Record<string, unknown>;
  const y = b as Record<string, unknown>;
  const keys = Object.keys(x);
  if (keys.length !== Object.keys(y).length) return false;
  for (const k of keys) if (x[k] !== y[k] && !(typeof x[k] === 'object' && JSON.stringify(x[k]) === JSON.stringify(y[k]))) return false;
  return true;
}

const sameCall = (a: ToolCall, b: ToolCall) => a.name === b.name && same(a.arguments, b.arguments);

/** The same tool with the same arguments `times` or more times in a row (over turns). */
export function repeatedCall(t: Transcript, times: number): ScanMark | undefined {
  let previous: ToolCall | undefined;
  let run = 0;
  for (let i = 0; i < t.turns.length; i++)
    for (const call of t.turns[i].toolCalls) {
      run = previous && sameCall(previous, call) ? run + 1 : 1;
      previous = call;
      if (run >= times)
        return { kind: 'repeated-call', turn: i, evidence: evidence(`${times}× ${call.name}(${JSON.stringify(call.arguments) ?? ''})`) };
    }
  return undefined;
}

const isLimit = (v: unknown) => typeof v === 'string' && AT_LIMIT.has(v.toLowerCase());

/** Stopped at the token limit, where the source says why each reply or the rollout ended. */
export function truncated(t: Transcript): ScanMark | undefined {
  for (let i = 0; i < t.turns.length; i++)
    if (isLimit(t.turns[i].finishReason)) return { kind: 'truncated', turn: i, evidence: `finish reason ${t.turns[i].finishReason}` };
  for (const said of [t.fields?.finish_reason, t.fields?.stop_reason, t.metrics?.finish_reason])
    if (isLimit(said)) return { kind: 'truncated', evidence: `finish reason ${String(said)}` };
  return undefined;
}

export function refusal(t: Transcript): ScanMark | undefined {
  for (let i = t.turns.length - 1; i >= 0; i--) {
    const text = t.turns[i].text?.trim();
    if (!text) continue;
    return REFUSAL.test(text.slice(0, REFUSAL_CHARS)) ? { kind: 'refusal', turn: i, evidence: evidence(text) } : undefined;
  }
  return undefined;
}
