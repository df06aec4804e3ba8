import { createReadStream } from 'node:fs';
import { readdir, readFile, stat } from 'node:fs/promises';
import path from 'node:path';
import { linesOf, tracesIn, transcriptFromTrace, type ReadItem, type SkippedLine } from '../../core/rollouts';
import { parseOutsideJson } from '../../core/text/json';
import { transcriptsFromJsonLines } from '../../core/transcript/jsonLines';
import type { RolloutReader } from './reader';
import { isSavedTranscriptLine } from './saved';

// Local files, format sniffed: a log (rollout records, SDK lines, tool output), a raw `traces.json` artifact, a
// `traces/search` or `batchGet` response, JSON Lines of traces, or a directory of any of these.

/** Files read whole (and tried as one JSON document first); a larger file is streamed line by line. */
const WHOLE_FILE_BYTES = 64 * 1024 * 1024;
const READABLE = /\.(json|jsonl|ndjson|log|txt)$/i;

/** The rollouts of one JSON document (traces in any of their forms), or undefined when the text is not one JSON value. */
function documentItems(text: string): ReadItem[] | undefined {
  const first = text.charCodeAt(text.search(/\S/));
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

/** Transcripts saved one a line (`mtrl rollouts --transcripts`, a local signal check's), told by the first line; else undefined. */
function savedItems(text: string): ReadItem[] | undefined {
  if (!isSavedTranscriptLine(text.slice(0, text.indexOf('\n') + 1 || undefined))) return undefined;
  const all = transcriptsFromJsonLines(text);
  // A later line that is not a transcript: read as lines, so nothing is dropped unsaid.
  return all.problem ? undefined : all.transcripts.map((transcript) => ({ transcript }));
}

/** A text's items: one JSON document of traces, saved transcripts, else its lines. */
function* textItems(text: string): Iterable<ReadItem> {
  const whole = documentItems(text) ?? savedItems(text);
  if (whole) yield* whole;
  else for (const line of text.split('\n')) yield { text: line };
}

/** Files under a directory (recursively) that can hold rollouts, in name order. */
async function filesUnder(dir: string): Promise<string[]> {
  const out: string[] = [];
  for (const entry of (await readdir(dir, { withFileTypes: true })).sort((a, b) => a.name.localeCompare(b.name))) {
    const full = path.join(dir, entry.name);
    if (entry.isDirectory()) out.push(...(await filesUnder(full)));
    else if (entry.isFile() && READABLE.test(entry.name)) out.push(full);
  }
  return out;
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
    for await (const line of linesOf(rest, (n, chars) => skipped.push({ line: n, chars }))) yield { text: line };
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

/** One file's items: read whole when small (a trace document is one JSON value), streamed as lines when large. */
async function* fileItems(file: string, size: number, skipped: SkippedLine[], signal: AbortSignal): AsyncIterable<ReadItem> {
  if (size <= WHOLE_FILE_BYTES) yield* textItems(await readFile(file, { encoding: 'utf8', signal }));
  else
    for await (const line of linesOf(createReadStream(file, { signal }), (n, chars) => skipped.push({ line: n, chars })))
      yield { text: line };
}

/** A reader of an input read whole on each call, noting afresh the lines it had to skip. */
function wholeInputReader(items: (skipped: SkippedLine[], signal: AbortSignal) => AsyncIterable<ReadItem>): RolloutReader {
  const skipped: SkippedLine[] = [];
  return {
    from: 'file',
    skipped,
    async *read(signal) {
      skipped.length = 0;
      yield* items(skipped, signal);
    },
    followable: async () => false,
    accepts: () => true,
  };
}

/** A local file or directory, read whole on each call. */
export function localReader(target: string): RolloutReader {
  return wholeInputReader(async function* (skipped, signal) {
    const info = await stat(target);
    if (!info.isDirectory()) {
      yield* fileItems(target, info.size, skipped, signal);
      return;
    }
    for (const file of await filesUnder(target)) {
      signal.throwIfAborted();
      yield* fileItems(file, (await stat(file)).size, skipped, signal);
    }
  });
}

/** Any byte stream (standard input, a file VS Code reads for us), read whole on each call. */
export function streamReader(
  open: (signal: AbortSignal) => Promise<AsyncIterable<Uint8Array | string> | Iterable<Uint8Array | string>>,
): RolloutReader {
  return wholeInputReader(async function* (skipped, signal) {
    yield* streamItems(await open(signal), skipped);
  });
}
