import { readFileSync, statSync } from 'node:fs';
import { readFile, stat } from 'node:fs/promises';
import path from 'node:path';
import { linesOf, tracesIn, transcriptFromTrace, type ReadItem, type SkippedLine } from '../../core/rollouts';
import { parseOutsideJson } from '../../core/text/json';
import { savedTranscriptOf, transcriptsFromJsonLines } from '../../core/transcript/jsonLines';
import type { Transcript } from '../../core/transcript/model';
import { entryFiles, filesUnder, WHOLE_FILE_BYTES, type FolderFile } from './folderWalk';
import type { RolloutReader } from './reader';
import { isSavedTranscriptLine, placedLines, type PlacedLine } from './saved';

// Local files, format sniffed: a log (rollout records, SDK lines, tool output), a raw `traces.json` artifact, a
// `traces/search` or `batchGet` response, JSON Lines of traces, or a directory of any of these.

/** The rollouts of one JSON document (traces in any of their forms), or undefined when the text is not one JSON value. */
function documentItems(text: string): ReadItem[] | undefined {
  const first = firstAfterSpace(text);
  if (first !== 123 && first !== 91) return undefined;
  let value: unknown;
  try {
    value = parseOutsideJson(text);
  } catch {
    return undefined;
  }
  const items: ReadItem[] = [];
  for (const trace of tracesIn(value)) {
    const transcript = transcriptFromTrace(trace);
    if (transcript) items.push({ transcript });
  }
  // A JSON document that holds no trace (a single record, a CloudWatch export) is read as lines.
  return items.length ? items : undefined;
}

/** The code of the first character past JSON's white space: a regex search per file cost 15 ms on 100,000 trace folders. */
function firstAfterSpace(text: string): number {
  let i = 0;
  for (let c = text.charCodeAt(0); c === 32 || c === 10 || c === 13 || c === 9; c = text.charCodeAt(++i));
  return text.charCodeAt(i);
}

/** Transcripts saved one a line (`mtrl rollouts --transcripts`, a local signal check's), told by the first line; else undefined. */
function savedItems(text: string): ReadItem[] | undefined {
  if (!isSavedTranscriptLine(text.slice(0, text.indexOf('\n') + 1 || undefined))) return undefined;
  const all = transcriptsFromJsonLines(text);
  // A later line that is not a transcript: read as lines, so nothing is dropped unsaid.
  return all.problem ? undefined : all.transcripts.map((transcript) => ({ transcript }));
}

/** A text's items: one JSON document of traces, saved transcripts (both as a list: no generator per file), else its lines. */
function textItems(text: string): Iterable<ReadItem> {
  return documentItems(text) ?? savedItems(text) ?? lineTexts(text);
}

function* lineTexts(text: string): Iterable<ReadItem> {
  for (const line of text.split('\n')) yield { text: line };
}

/**
 * Streamed lines as items. When the first is a saved transcript (`mtrl rollouts --transcripts`), each line is read whole
 * as one, as a file small enough to read whole is (savedItems), with where it lies when the line knows; a line that is
 * not one goes on as a log line.
 */
async function* lineItems(lines: AsyncIterable<string | PlacedLine>): AsyncIterable<ReadItem> {
  let saved: boolean | undefined;
  for await (const line of lines) {
    const text = typeof line === 'string' ? line : line.text;
    if (saved === undefined && text.trim()) saved = isSavedTranscriptLine(text);
    const transcript = saved ? savedLineOf(text) : undefined;
    if (!transcript) yield { text };
    else yield typeof line === 'string' ? { transcript } : { transcript, at: line.at };
  }
}

function savedLineOf(line: string): Transcript | undefined {
  try {
    return savedTranscriptOf(parseOutsideJson(line));
  } catch {
    return undefined;
  }
}

/** A chunked stream's items: the first line tells a JSON document (pretty-printed: its first line is not JSON) from lines. */
export async function* streamItems(
  chunks: AsyncIterable<string | Uint8Array> | Iterable<string | Uint8Array>,
  skipped: SkippedLine[],
): AsyncIterable<ReadItem> {
  const decoder = new TextDecoder();
  const source = (async function* () {
    for await (const chunk of chunks) yield typeof chunk === 'string' ? chunk : decoder.decode(chunk, { stream: true });
    yield decoder.decode();
  })();
  let held = '';
  let next = await source.next();
  for (; !next.done; next = await source.next()) {
    held += next.value;
    const firstLine = /^\s*(.*)\n/.exec(held)?.[1];
    if (firstLine === undefined) continue;
    if (/^[{[]/.test(firstLine) && !isJson(firstLine)) break;
    const rest = (async function* () {
      yield held;
      for (let r = await source.next(); !r.done; r = await source.next()) yield r.value;
    })();
    yield* lineItems(linesOf(rest, (n, chars) => skipped.push({ line: n, chars })));
    return;
  }
  // A JSON document (or text without a newline): read whole.
  if (!next.done) for (next = await source.next(); !next.done; next = await source.next()) held += next.value;
  yield* textItems(held);
}

function isJson(text: string): boolean {
  try {
    parseOutsideJson(text);
    return true;
  } catch {
    return false;
  }
}

/** A file that could not be read: the message names it, so a folder's read never drops one unsaid. */
export class UnreadableFile extends Error {
  constructor(file: string, cause: unknown) {
    const code = (cause as NodeJS.ErrnoException).code;
    super(`cannot read ${file}: ${code === 'ENOENT' ? 'no such file (a link to nothing?)' : (cause as Error).message}`, { cause });
  }
}

const ABSENT = new Set(['ENOENT', 'ENOTDIR', 'EISDIR']);
/** Text too long for one string (or one buffer): the file is streamed instead. */
const TOO_LONG = new Set(['ERR_STRING_TOO_LONG', 'ERR_FS_FILE_TOO_LARGE']);

/** One options object for every read: Node copies a string's options into a new object per call, about a fifth of a small file's read. */
const UTF8 = { encoding: 'utf8', flag: 'r' } as const;

/**
 * A small file's text, else `large` (it is streamed instead), else `absent` for a file the layout expected that is not
 * there. A file of unknown size is read without a stat first: two calls into Node per file (stat, read) were a tenth of
 * the time on 100,000 trace folders.
 */
function readSmall({ file, expected, unsized }: FolderFile): { text: string } | 'large' | 'absent' {
  try {
    if (!unsized && statSync(file).size > WHOLE_FILE_BYTES) return 'large';
    const text = readFileSync(file, UTF8);
    return unsized && text.length > WHOLE_FILE_BYTES ? 'large' : { text };
  } catch (error) {
    const code = (error as NodeJS.ErrnoException).code ?? '';
    if (expected && ABSENT.has(code)) return 'absent';
    if (TOO_LONG.has(code)) return 'large';
    throw new UnreadableFile(file, error);
  }
}

/** Bytes read synchronously before the event loop gets a turn (cancel, progress, the rest of the extension host): about 10 ms of parsing. */
const TURN_BYTES = 2 * 2 ** 20;
/** What a file counts for against TURN_BYTES beyond its size: an empty file still costs its system calls. */
const FILE_COST_BYTES = 4096;

/** Items of a streamed source handed on this many at a time: one await per item through nested generators costs more than its reading. */
const STREAMED_BATCH = 256;

/** A folder's items handed on this many at a time. */
const FOLDER_BATCH = 8;

/** Items in batches of STREAMED_BATCH, in order. */
async function* batchesOf(items: AsyncIterable<ReadItem> | Iterable<ReadItem>): AsyncIterable<ReadItem[]> {
  let batch: ReadItem[] = [];
  for await (const item of items) {
    batch.push(item);
    if (batch.length >= STREAMED_BATCH) {
      yield batch;
      batch = [];
    }
  }
  if (batch.length) yield batch;
}

/**
 * A folder's files, read synchronously a batch at a time, in name order, their items handed on as one batch per turn.
 * One read per file through the thread pool (open, stat, read, close, each a round trip) is bound by latency, not work:
 * `mtrl rollouts` on 10,000 trace folders read that way took five times the CPU and wall time of a plain loop over
 * readFileSync (bench/traceFolders.bench.ts); and an await per rollout through the nested generators was a few more
 * promises for each.
 */
async function* folderBatches(files: Iterable<FolderFile>, skipped: SkippedLine[], signal: AbortSignal): AsyncIterable<ReadItem[]> {
  let spent = 0;
  let batch: ReadItem[] = [];
  for (const found of files) {
    if (spent >= TURN_BYTES) {
      if (batch.length) yield batch;
      batch = [];
      await new Promise((resolve) => setImmediate(resolve));
      signal.throwIfAborted();
      spent = 0;
    }
    const read = readSmall(found);
    if (read === 'absent') {
      // The layout expected this file and the entry has another shape: it is walked (what was read before goes first).
      if (batch.length) yield batch;
      batch = [];
      yield* folderBatches(entryFiles(found.expected!.entry), skipped, signal);
      spent += FILE_COST_BYTES;
    } else if (read === 'large') {
      if (batch.length) yield batch;
      batch = [];
      yield* batchesOf(largeFileItems(found.file, skipped, signal));
    } else {
      spent += read.text.length + FILE_COST_BYTES;
      for (const item of textItems(read.text)) batch.push(item);
      // Handed on small: a batch holds whole rollouts, and held long they outlive young-generation collections.
      if (batch.length >= FOLDER_BATCH) {
        yield batch;
        batch = [];
      }
    }
  }
  if (batch.length) yield batch;
}

/** A file past WHOLE_FILE_BYTES, streamed line by line; its saved transcripts can be read again from where they lie. */
async function* largeFileItems(file: string, skipped: SkippedLine[], signal: AbortSignal): AsyncIterable<ReadItem> {
  yield* lineItems(placedLines(file, signal, (n, chars) => skipped.push({ line: n, chars })));
}

/** A reader of an input read whole on each call, in batches of items, noting afresh the lines it had to skip. */
function wholeInputReader(batches: (skipped: SkippedLine[], signal: AbortSignal) => AsyncIterable<ReadItem[]>): RolloutReader {
  const skipped: SkippedLine[] = [];
  const readBatches = (signal: AbortSignal) => {
    skipped.length = 0;
    return batches(skipped, signal);
  };
  return {
    from: 'file',
    skipped,
    readBatches,
    async *read(signal) {
      for await (const batch of readBatches(signal)) yield* batch;
    },
    followable: async () => false,
    accepts: () => true,
  };
}

/** A local file or directory, read whole on each call. */
export function localReader(target: string): RolloutReader {
  return wholeInputReader(async function* (skipped, signal) {
    const info = await stat(target);
    if (info.isDirectory()) yield* folderBatches(filesUnder(path.normalize(target).replace(/(.)[\\/]+$/, '$1')), skipped, signal);
    else if (info.size <= WHOLE_FILE_BYTES) yield* batchesOf(textItems(await readFile(target, { encoding: 'utf8', signal })));
    else yield* batchesOf(largeFileItems(target, skipped, signal));
  });
}

/** Any byte stream (standard input, a file VS Code reads for us), read whole on each call. */
export function streamReader(
  open: (signal: AbortSignal) => Promise<AsyncIterable<Uint8Array | string> | Iterable<Uint8Array | string>>,
): RolloutReader {
  return wholeInputReader(async function* (skipped, signal) {
    yield* batchesOf(streamItems(await open(signal), skipped));
  });
}
