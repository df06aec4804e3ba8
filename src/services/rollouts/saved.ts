import { open, readFile } from 'node:fs/promises';
import { prepareTranscripts, type JobContext } from '../../core/rollouts/prepare';
import { transcriptsFromJsonLines } from '../../core/transcript/jsonLines';
import type { Transcript } from '../../core/transcript/model';

/** A JSON Lines file's transcript that the first line is not: named by its line. */
export class SavedTranscriptsProblem extends Error {}

/** Whether a file's first line is a saved transcript (id, task, turns and its GRPO group): then every line is one. */
export function isSavedTranscriptLine(line: string): boolean {
  try {
    const value = JSON.parse(line) as Record<string, unknown> | null;
    return (
      !!value &&
      typeof value.id === 'string' &&
      typeof value.groupKey === 'string' &&
      Array.isArray(value.turns) &&
      !!value.task &&
      typeof value.task === 'object'
    );
  } catch {
    return false;
  }
}

/** The output of `mtrl rollouts --transcripts` (or a signal check's kept rollouts) read back, its steps already decided; else undefined. */
export async function savedTranscripts(target: string, job: JobContext = {}): Promise<Transcript[] | undefined> {
  if (target === '-' || !/\.jsonl$/i.test(target)) return undefined;
  // Sniffed from the first line only: a large log or traces file is streamed by its reader, never read whole here.
  try {
    const file = await open(target, 'r');
    try {
      const { buffer, bytesRead } = await file.read(Buffer.alloc(1 << 20), 0, 1 << 20, 0);
      const head = buffer.subarray(0, bytesRead).toString('utf8').split('\n', 1)[0];
      if (!isSavedTranscriptLine(head)) return undefined;
    } finally {
      await file.close();
    }
  } catch {
    return undefined;
  }
  const { transcripts, problem } = transcriptsFromJsonLines(await readFile(target, 'utf8'));
  if (problem) throw new SavedTranscriptsProblem(`${target}:${problem.line} ${problem.message}`);
  // Judged as the board judges them (the same pipeline step): solved at the threshold given, the same groups.
  return prepareTranscripts(transcripts, job);
}
