import type { Transcript } from './model';

/** Transcripts as `mtrl rollouts --transcripts` writes them, one JSON object a line; the first line that is not one is named. */
export function transcriptsFromJsonLines(text: string): { transcripts: Transcript[]; problem?: { line: number; message: string } } {
  const transcripts: Transcript[] = [];
  const lines = text.split(/\r?\n/);
  for (let i = 0; i < lines.length; i++) {
    if (!lines[i].trim()) continue;
    let value: unknown;
    try {
      value = JSON.parse(lines[i]);
    } catch {
      return { transcripts, problem: { line: i + 1, message: 'is not JSON' } };
    }
    const t = value as Partial<Transcript> | null;
    if (!t || typeof t !== 'object' || typeof t.id !== 'string' || !Array.isArray(t.turns) || !t.task || typeof t.task !== 'object')
      return { transcripts, problem: { line: i + 1, message: 'is not a transcript (id, task, turns)' } };
    transcripts.push({ ...t, groupKey: typeof t.groupKey === 'string' ? t.groupKey : t.id } as Transcript);
  }
  return { transcripts };
}
