/**
 * A column of strings crosses to the parent as one text and where each value ends: cloning one string costs a fraction
 * of cloning 100,000, and the values sliced from it are small objects the garbage collector never copies the text of.
 */
type Column = unknown[] | { text: string; ends: Int32Array };

/** A batch of rows as one column per name, the form that crosses threads cheapest. */
export interface ColumnBatch {
  start: number;
  fileRows: number;
  count: number;
  names: string[];
  columns: Column[];
}

function packed(values: unknown[]): Column {
  if (!values.every((v) => typeof v === 'string')) return values;
  const strings = values as string[];
  const ends = new Int32Array(strings.length);
  let at = 0;
  for (let i = 0; i < strings.length; i++) ends[i] = at += strings[i].length;
  return { text: strings.join(''), ends };
}

/** Rows decoded by hyparquet (every row has the same keys in the same order) as columns. */
export function toColumns(start: number, fileRows: number, rows: Record<string, unknown>[]): ColumnBatch {
  const names = rows.length ? Object.keys(rows[0]) : [];
  const columns = names.map((name) => packed(rows.map((row) => row[name])));
  return { start, fileRows, count: rows.length, names, columns };
}

/** Values `from` to `to` (excluded) of one column, as an array again. */
function unpacked(column: Column, from: number, to: number): unknown[] {
  if (Array.isArray(column)) return column.slice(from, to);
  const values = new Array<string>(to - from);
  let at = from ? column.ends[from - 1] : 0;
  for (let i = from; i < to; i++) values[i - from] = column.text.slice(at, (at = column.ends[i]));
  return values;
}

/** Rows `from` to `to` (excluded) of a batch as objects again, their keys in the same order. */
export function toRows(batch: ColumnBatch, from = 0, to = batch.count): Record<string, unknown>[] {
  const { names } = batch;
  const columns = batch.columns.map((column) => unpacked(column, from, to));
  const rows = new Array<Record<string, unknown>>(to - from);
  for (let i = 0; i < rows.length; i++) {
    const row: Record<string, unknown> = {};
    for (let k = 0; k < names.length; k++) row[names[k]] = columns[k][i];
    rows[i] = row;
  }
  return rows;
}
