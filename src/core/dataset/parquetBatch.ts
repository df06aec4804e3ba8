import type { FileMetaData, SchemaTree } from 'hyparquet' with { 'resolution-mode': 'import' };
import { isPlainText, TextPages, type PackedText } from './parquetText';

/** Bytes `start`–`end` of the file (`ParquetBytes.slice`). */
type ReadBytes = (start: number, end: number) => ArrayBuffer | Promise<ArrayBuffer>;

/** A column of a batch: text packed in one buffer, or the values as hyparquet decoded them. */
export type Column = unknown[] | PackedText;

/** A batch of rows as one column per name, the form that crosses threads cheapest. */
export interface ColumnBatch {
  start: number;
  fileRows: number;
  count: number;
  names: string[];
  columns: Column[];
  /** On the first batch, every column of the file (`names` are those read): a `prompt` look-alike is named from them. */
  fileColumns?: string[];
}

/** As hyparquet decodes text: UTF-8 with replacement characters, a leading byte order mark dropped. */
const utf8 = new TextDecoder();

function packed(values: unknown[]): Column {
  if (!values.every((v) => v instanceof Uint8Array)) return values.map((v) => (v instanceof Uint8Array ? utf8.decode(v) : v));
  const texts = values as Uint8Array[];
  const ends = new Int32Array(texts.length);
  let at = 0;
  for (let i = 0; i < texts.length; i++) ends[i] = at += texts[i].length;
  const bytes = new Uint8Array(at);
  for (let i = 0; i < texts.length; i++) bytes.set(texts[i], i ? ends[i - 1] : 0);
  return { bytes, ends };
}

/** Rows decoded by hyparquet (every row has the same keys in the same order; text as bytes) as columns. */
export function toColumns(start: number, fileRows: number, rows: Record<string, unknown>[]): ColumnBatch {
  const names = rows.length ? Object.keys(rows[0]) : [];
  const columns = names.map((name) => packed(rows.map((row) => row[name])));
  return { start, fileRows, count: rows.length, names, columns };
}

/**
 * The columns read of a file whose every such column is plain text, batch by batch in row order, each row group's
 * column chunks fetched once and read page by page into packed text (no object a value, no row objects).
 */
export class PackedBatches {
  private group = -1;
  private groupStart = 0;
  private pages: TextPages[] = [];

  private constructor(
    private readonly bytes: ReadBytes,
    private readonly metadata: FileMetaData,
    private readonly names: string[],
    private readonly columns: SchemaTree[],
    private readonly hyparquet: typeof import('./hyparquet'),
  ) {}

  /** A reader for the columns `read` (all when undefined), or undefined when one of them is not plain text. */
  static of(bytes: ReadBytes, metadata: FileMetaData, read: string[] | undefined, hyparquet: typeof import('./hyparquet')) {
    const top = hyparquet.parquetSchema(metadata).children;
    // Row objects key the values by the order of the first row group's column chunks, as hyparquet builds them.
    const names = (metadata.row_groups[0]?.columns ?? [])
      .map((chunk) => chunk.meta_data?.path_in_schema[0] ?? '')
      .filter((name) => !read || read.includes(name));
    const columns = names.map((name) => top.find((c) => c.element.name === name));
    if (!names.length || new Set(names).size !== names.length || !columns.every((c) => c && isPlainText(c))) return undefined;
    return new PackedBatches(bytes, metadata, names, columns as SchemaTree[], hyparquet);
  }

  /** Rows `start`–`end` (excluded), which lie in one row group, after the rows of the batch before. */
  async batch(start: number, end: number, fileRows: number): Promise<ColumnBatch> {
    if (this.group < 0 || start >= this.groupStart + Number(this.metadata.row_groups[this.group].num_rows)) await this.nextGroup(start);
    const columns = this.pages.map((pages) => pages.take(end - start));
    return { start, fileRows, count: end - start, names: this.names, columns };
  }

  private async nextGroup(start: number): Promise<void> {
    const groups = this.metadata.row_groups;
    // Row groups of no rows have no batch.
    do {
      if (this.group >= 0) this.groupStart += Number(groups[this.group].num_rows);
      this.group++;
    } while (this.group < groups.length && (this.groupStart < start || !Number(groups[this.group].num_rows)));
    const group = groups[this.group];
    if (!group || this.groupStart !== start) throw new Error('batches out of row order');
    this.pages = await Promise.all(
      this.names.map(async (name, i) => {
        const chunk = group.columns.find((c) => c.meta_data?.path_in_schema[0] === name);
        if (!chunk?.meta_data || chunk.file_path) throw new Error(`no column chunk of ${name} in this file`);
        const [from, to] = TextPages.range(chunk.meta_data);
        const buffer = await this.bytes(from, to);
        return new TextPages(buffer, chunk.meta_data, this.columns[i], this.hyparquet);
      }),
    );
  }
}
