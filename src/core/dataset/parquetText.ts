import type { ColumnMetaData, SchemaTree } from 'hyparquet' with { 'resolution-mode': 'import' };
type Hyparquet = typeof import('./hyparquet');

/**
 * Text values as their UTF-8 bytes end to end, where each value ends, and which rows are null: one buffer a column,
 * where one `Uint8Array` a value costs more to make and to collect than decoding the page.
 */
export interface PackedText {
  bytes: Uint8Array;
  ends: Int32Array;
  nulls?: Uint8Array;
}

/** A top-level column read as text, as hyparquet reads it: plain bytes, or annotated as UTF-8 text (not JSON, a UUID or a decimal). */
export function isPlainText({ element, children }: SchemaTree): boolean {
  const { type, converted_type: converted, logical_type: logical, repetition_type: repetition } = element;
  if (type !== 'BYTE_ARRAY' || children.length || repetition === 'REPEATED') return false;
  return (converted === undefined || converted === 'UTF8') && (logical === undefined || logical.type === 'STRING');
}

/** Some page or encoding the packed reader leaves to hyparquet (which reads it, or names why it cannot). */
class NotPacked extends Error {}

function check(ok: boolean, what: string): void {
  if (!ok) throw new NotPacked(what);
}

/** PLAIN byte arrays (a 4-byte length before each value) packed in place, the lengths squeezed out: one move a value, no allocation. */
function plainValues(page: Uint8Array, from: number, count: number): PackedText {
  const view = new DataView(page.buffer, page.byteOffset, page.byteLength);
  const ends = new Int32Array(count);
  let read = from;
  let written = 0;
  for (let i = 0; i < count; i++) {
    check(read + 4 <= page.length, 'a value past the page');
    const length = view.getUint32(read, true);
    read += 4;
    check(read + length <= page.length, 'a value past the page');
    page.copyWithin(written, read, read + length);
    read += length;
    ends[i] = written += length;
  }
  return { bytes: page.subarray(0, written), ends };
}

/** DELTA_LENGTH_BYTE_ARRAY (DuckDB's text in data page v2): every length first, then the values end to end, so packed already. */
function deltaLengthValues(page: Uint8Array, from: number, count: number, unpack: Hyparquet['deltaBinaryUnpack']): PackedText {
  const reader = { view: new DataView(page.buffer, page.byteOffset, page.byteLength), offset: from };
  const lengths = new Int32Array(count);
  unpack(reader, count, lengths);
  const ends = new Int32Array(count);
  let end = 0;
  for (let i = 0; i < count; i++) {
    check(lengths[i] >= 0, 'a negative length');
    ends[i] = end += lengths[i];
  }
  check(reader.offset + end <= page.length, 'a value past the page');
  return { bytes: page.subarray(reader.offset, reader.offset + end), ends };
}

/** Dictionary indices turned into the dictionary's values, packed. */
function fromDictionary(dictionary: PackedText, indices: Int32Array): PackedText {
  const { bytes: source, ends: sourceEnds } = dictionary;
  const ends = new Int32Array(indices.length);
  let size = 0;
  for (let i = 0; i < indices.length; i++) {
    const k = indices[i];
    check(k >= 0 && k < sourceEnds.length, 'an index past the dictionary');
    ends[i] = size += sourceEnds[k] - (k ? sourceEnds[k - 1] : 0);
  }
  const bytes = new Uint8Array(size);
  for (let i = 0; i < indices.length; i++) {
    const k = indices[i];
    const start = k ? sourceEnds[k - 1] : 0;
    const at = i ? ends[i - 1] : 0;
    for (let j = start; j < sourceEnds[k]; j++) bytes[at + j - start] = source[j];
  }
  return { bytes, ends };
}

/** Values (no nulls) spread over rows, a null where the definition level says so. */
function withNulls(values: PackedText, levels: Uint8Array | undefined): PackedText {
  if (!levels) return values;
  const ends = new Int32Array(levels.length);
  const nulls = new Uint8Array(levels.length);
  let v = 0;
  for (let i = 0; i < levels.length; i++) {
    if (levels[i]) ends[i] = values.ends[v++];
    else {
      nulls[i] = 1;
      ends[i] = v ? values.ends[v - 1] : 0;
    }
  }
  check(v === values.ends.length, 'as many values as defined rows');
  return { bytes: values.bytes, ends, nulls };
}

/** Rows of a page: its packed text, and the first and past-the-last row taken. */
type Piece = [PackedText, number, number];

/** Pieces of pages joined in order, into buffers of their own: they are moved to another thread, and a decompressor's output may sit in a shared pool. */
function joined(pieces: Piece[]): PackedText {
  const rows = pieces.reduce((n, [, from, to]) => n + to - from, 0);
  const startOf = ({ ends }: PackedText, row: number) => (row ? ends[row - 1] : 0);
  const bytes = new Uint8Array(pieces.reduce((n, [text, from, to]) => n + startOf(text, to) - startOf(text, from), 0));
  const ends = new Int32Array(rows);
  const nulls = pieces.some(([text]) => text.nulls) ? new Uint8Array(rows) : undefined;
  let row = 0;
  let at = 0;
  for (const [text, from, to] of pieces) {
    const base = startOf(text, from);
    bytes.set(text.bytes.subarray(base, startOf(text, to)), at);
    const source = text.ends;
    for (let i = from; i < to; i++) ends[row + i - from] = source[i] - base + at;
    if (text.nulls) nulls?.set(text.nulls.subarray(from, to), row);
    row += to - from;
    at += startOf(text, to) - base;
  }
  return { bytes, ends, nulls };
}

/**
 * One plain text column of one row group, read page by page into packed text, rows taken in order (a row group larger
 * than a batch is read once, not once a batch). Anything but PLAIN or dictionary pages of a flat column throws, for
 * hyparquet to read instead.
 */
export class TextPages {
  private readonly view: DataView;
  private offset = 0;
  private dictionary?: PackedText;
  private page?: PackedText;
  private pageRow = 0;
  private readonly optional: boolean;

  constructor(
    chunk: ArrayBuffer,
    private readonly meta: ColumnMetaData,
    column: SchemaTree,
    private readonly hyparquet: Hyparquet,
  ) {
    this.view = new DataView(chunk);
    this.optional = column.element.repetition_type !== 'REQUIRED';
  }

  /** The byte range of a column chunk in the file, as hyparquet computes it. */
  static range(meta: ColumnMetaData): [number, number] {
    const start = Number(meta.dictionary_page_offset || meta.data_page_offset);
    return [start, start + Number(meta.total_compressed_size)];
  }

  /** The next `count` rows. */
  take(count: number): PackedText {
    const pieces: Piece[] = [];
    let left = count;
    while (left > 0) {
      if (!this.page || this.pageRow === this.page.ends.length) this.nextPage();
      const page = this.page!;
      const to = Math.min(page.ends.length, this.pageRow + left);
      pieces.push([page, this.pageRow, to]);
      left -= to - this.pageRow;
      this.pageRow = to;
    }
    return joined(pieces);
  }

  private nextPage(): void {
    for (;;) {
      check(this.offset < this.view.byteLength - 1, 'rows past the column chunk');
      const reader = { view: this.view, offset: this.offset };
      const header = this.hyparquet.parquetHeader(reader);
      const body = new Uint8Array(this.view.buffer, this.view.byteOffset + reader.offset, header.compressed_page_size);
      check(reader.offset + header.compressed_page_size <= this.view.byteLength, 'a page past the column chunk');
      this.offset = reader.offset + header.compressed_page_size;
      if (header.type === 'DICTIONARY_PAGE') {
        const page = this.decompressed(body, header.uncompressed_page_size);
        this.dictionary = plainValues(page, 0, header.dictionary_page_header!.num_values);
        continue;
      }
      const text = header.type === 'DATA_PAGE' ? this.pageV1(body, header) : this.pageV2(body, header);
      if (!text.ends.length) continue;
      this.page = text;
      this.pageRow = 0;
      return;
    }
  }

  private pageV1(body: Uint8Array, header: ReturnType<Hyparquet['parquetHeader']>): PackedText {
    const daph = header.data_page_header;
    check(!!daph, 'a data page header');
    const page = this.decompressed(body, header.uncompressed_page_size);
    const reader = { view: new DataView(page.buffer, page.byteOffset, page.byteLength), offset: 0 };
    const levels = this.levels(reader, daph!.num_values);
    return withNulls(this.values(page, reader.offset, daph!.encoding, daph!.num_values - nullCount(levels), true), levels);
  }

  private pageV2(body: Uint8Array, header: ReturnType<Hyparquet['parquetHeader']>): PackedText {
    const daph = header.data_page_header_v2;
    check(header.type === 'DATA_PAGE_V2' && !!daph && !daph.repetition_levels_byte_length, 'a flat data page');
    const { num_values: rows, definition_levels_byte_length: levelBytes } = daph!;
    const reader = { view: new DataView(body.buffer, body.byteOffset, body.byteLength), offset: 0 };
    const levels = this.levels(reader, rows, levelBytes);
    check(reader.offset === levelBytes && nullCount(levels) === daph!.num_nulls, 'definition levels as the header says');
    const size = header.uncompressed_page_size - levelBytes;
    const rest = body.subarray(levelBytes);
    const page = daph!.is_compressed !== false && size ? this.decompressed(rest, size) : rest.slice();
    return withNulls(this.values(page, 0, daph!.encoding, rows - nullCount(levels), false), levels);
  }

  /** The definition levels of an optional column (1 a value, 0 a null), or undefined when every row has a value. */
  private levels(reader: { view: DataView; offset: number }, rows: number, length?: number): Uint8Array | undefined {
    if (!this.optional) return undefined;
    const levels = new Uint8Array(rows);
    this.hyparquet.readRleBitPackedHybrid(reader, 1, levels, length);
    return nullCount(levels) ? levels : undefined;
  }

  private values(page: Uint8Array, from: number, encoding: string, count: number, rleIsDictionary: boolean): PackedText {
    if (encoding === 'PLAIN') return plainValues(page, from, count);
    if (encoding === 'DELTA_LENGTH_BYTE_ARRAY') return deltaLengthValues(page, from, count, this.hyparquet.deltaBinaryUnpack);
    const dictionaryEncoded = encoding === 'PLAIN_DICTIONARY' || encoding === 'RLE_DICTIONARY' || (rleIsDictionary && encoding === 'RLE');
    check(dictionaryEncoded && !!this.dictionary && encoding !== 'RLE', `${encoding} values`);
    const indices = new Int32Array(count);
    check(from < page.length, 'a bit width');
    const width = page[from];
    if (width) {
      const reader = { view: new DataView(page.buffer, page.byteOffset, page.byteLength), offset: from + 1 };
      this.hyparquet.readRleBitPackedHybrid(reader, width, indices, page.length - from - 1);
    }
    return fromDictionary(this.dictionary!, indices);
  }

  /** A page's bytes, uncompressed into a buffer of its own (PLAIN values are packed in place). */
  private decompressed(body: Uint8Array, size: number): Uint8Array {
    const page = this.hyparquet.decompressPage(body, size, this.meta.codec, this.hyparquet.compressors);
    return page.buffer === body.buffer ? page.slice() : page;
  }
}

/** Rows without a value; a level above 1 is no flat column's. */
function nullCount(levels: Uint8Array | undefined): number {
  if (!levels) return 0;
  let n = 0;
  for (let i = 0; i < levels.length; i++) {
    check(levels[i] <= 1, 'definition levels of a flat column');
    if (!levels[i]) n++;
  }
  return n;
}
