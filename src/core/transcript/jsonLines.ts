import { readJsonLines } from '../text/jsonLines';
import type { Transcript } from './model';

/** One parsed line of saved transcripts as a transcript, or undefined when it is not one (id, task, turns). */
export function savedTranscriptOf(value: unknown): Transcript | undefined {
  const t = value as Partial<Transcript> | null;
  if (!t || typeof t !== 'object' || typeof t.id !== 'string' || !Array.isArray(t.turns) || !t.task || typeof t.task !== 'object')
    return undefined;
  return { ...t, groupKey: typeof t.groupKey === 'string' ? t.groupKey : t.id } as Transcript;
}

export const NOT_JSON = 'is not JSON';
export const NOT_A_TRANSCRIPT = 'is not a transcript (id, task, turns)';

/** Transcripts as `mtrl rollouts --transcripts` writes them, one JSON object a line; the first line that is not one is named. */
export function transcriptsFromJsonLines(text: string): { transcripts: Transcript[]; problem?: { line: number; message: string } } {
  const { items: transcripts, stop } = readJsonLines(text, savedTranscriptOf);
  if (!stop) return { transcripts };
  return { transcripts, problem: { line: stop.line, message: stop.notJson ? NOT_JSON : NOT_A_TRANSCRIPT } };
}
