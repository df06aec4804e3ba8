import { readCsv } from './csv';
import { readJsonArray } from './json-array';
import { JsonlReader } from './jsonl';
import { parquetBuffer, readParquet, type ParquetBytes, type ParquetDecoder } from './parquet';
import { lineSpan } from './positions';
import { RowChecker } from './rows';
import { wideEncodingMessage, wideEncodingOf } from '../text/encoding';
import { Utf8Pieces } from '../text/utf8Pieces';
import { uncompressed } from './gzip';
import type { DatasetReport, ValidateOptions } from './types';

export * from './types';
export { compareTrainVal, trainValOverlap, type Overlap } from './overlap';
export { KeyTable } from './key-table';
export { datasetConventions } from './conventions';
export { summaryLine } from './summary';
export { errorCount } from './summarized';
export { fixEdits, rowRanges, serializePrompt, wrapFlatRow, type FixKind, type TextEdit } from './fixes';
export { fileStem, formatFromName, roleFromName } from './names';
export { otherKindOfName } from './fileKinds';
export { closeRow, misspelledKey, renameTaskKey } from './repairs';
export { decodeParquet, parquetBuffer, parquetFile, type ParquetBytes } from './parquet';

export interface RunOptions extends ValidateOptions {
  /** Called between pieces of work; the editor yields to typing here and throws to cancel. */
  tick?: () => Promise<void> | void;
  /** How Parquet is decoded; the services pass one that runs off the editor's thread with a time budget. Default: in this thread. */
  parquetDecoder?: ParquetDecoder;
}

/** A gzip stream cut short or corrupt. */
function isZlibError(error: unknown): error is Error {
  return error instanceof Error && /^Z_/.test(String((error as { code?: unknown }).code));
}

/** Thrown when the bytes start with a UTF-16 or UTF-32 byte order mark: the service reads UTF-8. */
class WideEncoding extends Error {}

/** Bytes a byte order mark can take: the first ones are held until this many arrived, as a stream may cut a mark in two. */
const BOM_BYTES = 4;

/**
 * Bytes decoded at a time: a string this small is made in the young heap, where a 1 MB chunk's string took fresh pages
 * of the large-object space (a page fault every 4 KB) and a collection of the old heap to free them.
 */
const TEXT_PIECE = 64 * 1024;

/** Text pieces from bytes or strings; invalid UTF-8 becomes U+FFFD, which the readers report. */
async function* decode(chunks: AsyncIterable<Uint8Array | string>): AsyncGenerator<string> {
  const decoder = new Utf8Pieces();
  /** The first bytes, held until a byte order mark can be told; undefined once it was. */
  let head: Uint8Array | undefined = new Uint8Array(0);
  const text = (bytes: Uint8Array) => {
    if (head) {
      const wide = wideEncodingOf(bytes);
      if (wide) throw new WideEncoding(wideEncodingMessage(wide));
      head = undefined;
    }
    return decoder.decode(bytes);
  };
  for await (const chunk of chunks) {
    if (typeof chunk === 'string') {
      head = undefined;
      yield chunk;
      continue;
    }
    const bytes: Uint8Array = head ? concatBytes([head, chunk]) : chunk;
    if (head && bytes.length < BOM_BYTES) {
      head = bytes;
      continue;
    }
    for (let at = 0; at < bytes.length; at += TEXT_PIECE) {
      const piece = text(bytes.subarray(at, at + TEXT_PIECE));
      if (piece) yield piece;
    }
  }
  const rest = (head?.length ? text(head) : '') + decoder.end();
  if (rest) yield rest;
}

function concatBytes(parts: Uint8Array[]): Uint8Array {
  const out = new Uint8Array(parts.reduce((n, p) => n + p.length, 0));
  let at = 0;
  for (const p of parts) {
    out.set(p, at);
    at += p.length;
  }
  return out;
}

async function collectBytes(chunks: AsyncIterable<Uint8Array | string>): Promise<Uint8Array> {
  const parts: Uint8Array[] = [];
  for await (const chunk of chunks) parts.push(typeof chunk === 'string' ? new TextEncoder().encode(chunk) : chunk);
  return concatBytes(parts);
}

/** An empty file is an error whatever its role: the job would have nothing to train or validate on. */
function withEmptyFileError(report: DatasetReport): DatasetReport {
  if (report.rows === 0 && !report.findings.some((f) => f.severity === 'error')) {
    report.findings.push({ code: 'too-few-rows', severity: 'error', message: 'The file holds no rows.', span: lineSpan(1), row: 0 });
    report.counts['too-few-rows'] = (report.counts['too-few-rows'] ?? 0) + 1;
  }
  return report;
}

/**
 * Validates a dataset from a stream of chunks: a file, an S3 object body, or editor text in slices.
 * JSON Lines, CSV and a JSON array are checked as they stream (a JSON array holds one element at a time); Parquet given as chunks
 * is gathered whole (use validateParquet for random access). Never throws on bad data.
 */
export async function validateDataset(chunks: AsyncIterable<Uint8Array | string>, options: RunOptions): Promise<DatasetReport> {
  const checker = new RowChecker(options);
  try {
    await readAny(options.format === 'parquet' ? chunks : uncompressed(chunks, checker, options.format), checker, options);
  } catch (error) {
    if (!(error instanceof WideEncoding) && !isZlibError(error)) throw error;
    const message =
      error instanceof WideEncoding
        ? error.message
        : `The gzip-compressed file cannot be decompressed (is it cut short?): ${error.message}.`;
    checker.report('unreadable', message, lineSpan(1), 0);
  }
  return withEmptyFileError(checker.finish());
}

async function readAny(chunks: AsyncIterable<Uint8Array | string>, checker: RowChecker, options: RunOptions): Promise<void> {
  if (options.format === 'parquet') {
    await readParquet(parquetBuffer(await collectBytes(chunks)), checker, options.parquetDecoder, options.tick);
  } else if (options.format === 'csv') {
    await readCsv(decode(chunks), checker, options.tick);
  } else if (options.format === 'json') {
    await readJsonArray(decode(chunks), checker, options.tick);
  } else {
    const reader = new JsonlReader(checker);
    for await (const piece of decode(chunks)) {
      reader.push(piece);
      await options.tick?.();
    }
    reader.end();
  }
}

/** Validates a Parquet file by random access (a local file, an S3 object by ranges), so memory stays flat on large files. */
export async function validateParquet(file: ParquetBytes, options: RunOptions): Promise<DatasetReport> {
  const checker = new RowChecker(options);
  await readParquet(file, checker, options.parquetDecoder, options.tick);
  return withEmptyFileError(checker.finish());
}

/** Editor text cut into slices, so a large document is validated between keystrokes rather than in one block. */
async function* textSlices(text: string, size = 256 * 1024): AsyncGenerator<string> {
  for (let i = 0; i < text.length; i += size) yield text.slice(i, i + size);
}

/** Validates text held in memory (an editor document, a test fixture). */
export function validateText(text: string, options: RunOptions): Promise<DatasetReport> {
  return validateDataset(textSlices(text), options);
}
