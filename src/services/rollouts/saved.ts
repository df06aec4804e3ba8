import { createReadStream } from 'node:fs';
import { open } from 'node:fs/promises';
import { linesOf } from '../../core/rollouts';
import { prepareTranscripts, type JobContext } from '../../core/rollouts/prepare';
import { MAX_LINE_CHARS } from '../../core/text/lines';
import { JSON_TOO_DEEP, JsonTooDeep, parseOutsideJson } from '../../core/text/json';
import { NOT_A_TRANSCRIPT, NOT_JSON, savedTranscriptOf } from '../../core/transcript/jsonLines';
import type { Transcript } from '../../core/transcript/model';

/** A JSON Lines file's transcript that the first line is not: named by its line. */
export class SavedTranscriptsProblem extends Error {}

/** Whether a file's first line is a saved transcript (id, task, turns and its GRPO group): then every line is one. */
export function isSavedTranscriptLine(line: string): boolean {
  try {
    const value = parseOutsideJson(line) as Record<string, unknown> | null;
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
  // Judged as the board judges them (the same pipeline step): solved at the threshold given, the same groups.
  return prepareTranscripts(await readSavedLines(target), job);
}

/** Streamed line by line at any size, each line within the one line cap (MAX_LINE_CHARS) every reader keeps. */
async function readSavedLines(target: string): Promise<Transcript[]> {
  const transcripts: Transcript[] = [];
  const stop = (line: number, message: string) => new SavedTranscriptsProblem(`${target}:${line} ${message}`);
  let overlong: SavedTranscriptsProblem | undefined;
  let line = 0;
  const stream = createReadStream(target);
  try {
    for await (const text of linesOf(stream, (n, chars) => {
      overlong ??= stop(
        n,
        `is ${chars.toLocaleString('en')} characters long, past the line cap of ${MAX_LINE_CHARS / 2 ** 20} M characters: not read`,
      );
    })) {
      if (overlong) throw overlong;
      line++;
      if (!text.trim()) continue;
      let value: unknown;
      try {
        value = parseOutsideJson(text);
      } catch (error) {
        throw stop(line, error instanceof JsonTooDeep ? `holds ${JSON_TOO_DEEP}: not read` : NOT_JSON);
      }
      const transcript = savedTranscriptOf(value);
      if (!transcript) throw stop(line, NOT_A_TRANSCRIPT);
      transcripts.push(transcript);
    }
  } finally {
    stream.destroy();
  }
  if (overlong) throw overlong;
  return transcripts;
}
