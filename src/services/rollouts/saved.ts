import { closeSync, createReadStream, openSync, readSync } from 'node:fs';
import { open } from 'node:fs/promises';
import { linesOf, type SavedAt } from '../../core/rollouts';
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

/** A line of a file with where it lies, so a saved transcript can be read again from there. */
export interface PlacedLine {
  text: string;
  at: SavedAt;
}

/**
 * A file's lines, cut at newline bytes so each one's byte offset is exact (a decoded line's length in characters is
 * not its length in bytes); a line past MAX_LINE_CHARS bytes is skipped and passed to `onOverlong`.
 */
export async function* placedLines(
  file: string,
  signal: AbortSignal,
  onOverlong: (line: number, bytes: number) => void,
): AsyncGenerator<PlacedLine> {
  let held: Buffer[] = [];
  let heldBytes = 0;
  let start = 0;
  let line = 0;
  const cut = (last: Buffer): PlacedLine | undefined => {
    const bytes = heldBytes + last.length;
    const at = { file, offset: start, bytes };
    line++;
    start += bytes + 1;
    const parts = held;
    held = [];
    heldBytes = 0;
    if (bytes > MAX_LINE_CHARS) return void onOverlong(line, bytes);
    const text = (parts.length ? Buffer.concat([...parts, last]) : last).toString('utf8');
    // A byte-order mark is not part of the first line's JSON (a TextDecoder drops it too).
    return { text: at.offset === 0 && text.charCodeAt(0) === 0xfeff ? text.slice(1) : text, at };
  };
  for await (const chunk of createReadStream(file, { signal }) as AsyncIterable<Buffer>) {
    let from = 0;
    for (let nl = chunk.indexOf(10, from); nl !== -1; nl = chunk.indexOf(10, from)) {
      const placed = cut(chunk.subarray(from, nl));
      if (placed) yield placed;
      from = nl + 1;
    }
    if (from < chunk.length) {
      const rest = chunk.subarray(from);
      heldBytes += rest.length;
      // Past the cap only the count is kept: a file without newlines cannot exhaust memory.
      if (heldBytes <= MAX_LINE_CHARS) held.push(rest);
      else held = [];
    }
  }
  if (heldBytes) {
    const placed = cut(Buffer.alloc(0));
    if (placed) yield placed;
  }
}

/** Bytes read synchronously before the event loop gets a turn: reading back a whole board's rollouts keeps the host answering. */
const TURN_BYTES = 2 * 2 ** 20;

/**
 * Saved transcripts read again from where they lie (SavedAt), in the order asked, readied as the board's pipeline
 * readied them (the same job context): the board reads a rollout's turns this way when it is opened or re-scored.
 */
export async function readSavedAt(places: readonly SavedAt[], job: JobContext = {}): Promise<Transcript[]> {
  const files = new Map<string, number>();
  const out: Transcript[] = [];
  let spent = 0;
  try {
    for (const at of places) {
      if (spent >= TURN_BYTES) {
        await new Promise((resolve) => setImmediate(resolve));
        spent = 0;
      }
      let fd = files.get(at.file);
      if (fd === undefined) files.set(at.file, (fd = openSync(at.file, 'r')));
      const buffer = Buffer.alloc(at.bytes);
      const read = readSync(fd, buffer, 0, at.bytes, at.offset);
      spent += read;
      let transcript: Transcript | undefined;
      try {
        transcript = savedTranscriptOf(parseOutsideJson(buffer.toString('utf8', 0, read).replace(/^\uFEFF/, '')));
      } catch {
        // Told below, with the file and the place.
      }
      if (!transcript)
        throw new SavedTranscriptsProblem(`${at.file} changed since it was read: byte ${at.offset} no longer starts a saved transcript`);
      out.push(transcript);
    }
  } finally {
    for (const fd of files.values()) closeSync(fd);
  }
  return prepareTranscripts(out, job);
}
