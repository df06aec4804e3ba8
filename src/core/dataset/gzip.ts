import { Readable } from 'node:stream';
import { createGunzip } from 'node:zlib';
import { otherKindOf } from './fileKinds';
import { lineSpan } from './positions';
import type { RowChecker } from './rows';
import type { DatasetFormat } from './types';

/** gzip's magic bytes: a `.jsonl.gz` or `.csv.gz` (or a compressed file under a plain name) starts with them. */
function isGzip(chunk: Uint8Array | string): boolean {
  return typeof chunk !== 'string' && chunk.length >= 2 && chunk[0] === 0x1f && chunk[1] === 0x8b;
}

/**
 * The chunks as stored, or decompressed when they are gzip: read and counted, with one `compressed` warning saying how to
 * decompress. Bytes that are another kind of file (bzip2, Arrow, Parquet…) are one `unreadable` error and no rows.
 */
export async function* uncompressed(
  chunks: AsyncIterable<Uint8Array | string>,
  checker: RowChecker,
  format: DatasetFormat,
): AsyncGenerator<Uint8Array | string> {
  const source = chunks[Symbol.asyncIterator]();
  const first = await source.next();
  if (first.done) return;
  async function* all() {
    yield first.value;
    for (let next = await source.next(); !next.done; next = await source.next()) yield next.value;
  }
  const other = typeof first.value === 'string' ? undefined : otherKindOf(first.value, format);
  if (other) return checker.report('unreadable', other, lineSpan(1), 0);
  if (!isGzip(first.value)) return yield* all();
  checker.report(
    'compressed',
    'The file is gzip-compressed; its rows were read decompressed. Upload it decompressed (`gunzip -k FILE.gz`, or in Python `gzip.open`): the service reads a dataset as stored (a guess: its documentation names no compressed format).',
    lineSpan(1),
    0,
  );
  for await (const piece of Readable.from(all()).pipe(createGunzip())) yield piece as Uint8Array;
}
