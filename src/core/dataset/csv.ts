import type { CsvError } from 'csv-parse';
import { finished } from 'node:stream/promises';
import { lineSpan, type RowPlace } from './positions';
import type { RowChecker } from './rows';
import { notUtf8Message } from './rowText';
import { MAX_LINE_CHARS } from '../text/lines';

/** How much of a CSV file is held at once: a row (csv-parse stops past it, so memory stays bounded). */
export interface CsvLimits {
  rowChars: number;
}

/** A row may be as long as a JSON Lines line: a prompt of several MiB is read like any other; a longer row is a quote left open. */
export const CSV_LIMITS: CsvLimits = { rowChars: MAX_LINE_CHARS };

const millions = (chars: number) => `${chars / 1024 / 1024} M`;

/** Excel's `sep=;` line, which names the separator of the lines after it. */
const SEP_LINE = /^\uFEFF?sep=(.)\r?$/i;

/**
 * The separator a header line is split by when it is not the comma: `;` (Excel where the comma is the decimal mark) or a
 * tab (TSV, pandas `sep="\t"`). Judged outside quotes only, and never where a comma separates: a `;` inside a quoted field says nothing.
 */
function otherSeparator(header: string): ';' | '\t' | undefined {
  let quoted = false;
  let semicolons = 0;
  let tabs = 0;
  for (const ch of header) {
    if (ch === '"') quoted = !quoted;
    else if (quoted) continue;
    else if (ch === ',') return undefined;
    else if (ch === ';') semicolons++;
    else if (ch === '\t') tabs++;
  }
  return tabs > semicolons ? '\t' : semicolons ? ';' : undefined;
}

// pandas and Hugging Face datasets read `sep=,` as the header: the column is named `sep=` and the real header is a row.
const SEP_COMMA_MESSAGE =
  "The first line is `sep=,`, Excel's note of the separator: pandas and Hugging Face `datasets` read it as the header instead, so the file has no `prompt` column and its real header becomes a row with the prompt `prompt`. Delete that line; the rows after it were read to check them.";

/** Why a file split by another separator is refused, and how to save it as the service reads it. */
function separatorMessage(separator: string, sepLine: boolean): string {
  const named = separator === '\t' ? 'tabs' : `\`${separator}\``;
  const line = sepLine ? ` (its first line is \`sep=${separator === '\t' ? '\\t' : separator}\`)` : '';
  const why =
    separator === ';' ? ', as Excel writes CSV where the comma is the decimal mark' : separator === '\t' ? ' (tab-separated values)' : '';
  const save =
    separator === ';'
      ? 'Save it as comma-separated CSV (Excel: *CSV UTF-8 (Comma delimited)*)'
      : 'Save it as comma-separated CSV (pandas: `df.to_csv(path, index=False)`)';
  return `The file is separated by ${named}${line}${why}: the service reads comma-separated CSV and would see one column. ${save}; its rows were read with ${named} to check them.`;
}

/** How lines end: `\n` or `\r\n`, or a lone `\r` as Excel's *CSV (Macintosh)* and pandas' `lineterminator="\r"` write (pandas and pyarrow read it). */
type LineEnd = '\n' | '\r';

/** The first line of the text (held back until it is whole) and how it ends, then the rest as it comes. */
async function* withFirstLine(pieces: AsyncIterable<string>, first: (line: string, end: LineEnd) => void): AsyncGenerator<string> {
  let head: string | undefined = '';
  for await (const piece of pieces) {
    if (head === undefined) {
      yield piece;
      continue;
    }
    head += piece;
    const end = head.search(/\n|\r[^\n]/);
    if (end === -1 && head.length < MAX_LINE_CHARS) continue;
    const line = end === -1 ? head : head.slice(0, end);
    first(line.replace(/\r$/, ''), head[end] === '\r' ? '\r' : '\n');
    yield head;
    head = undefined;
  }
  if (head !== undefined) {
    first(head.replace(/\r$/, ''), '\n');
    if (head) yield head;
  }
}

/** Line breaks inside a record's fields, counted as csv-parse counts lines (where `\r` ends lines, `\n` inside quotes does too). */
function lineBreaks(fields: string[], end: LineEnd): number {
  let n = 0;
  if (end === '\r') for (const f of fields) n += f.match(/\r\n?|\n/g)?.length ?? 0;
  else for (const f of fields) for (let i = f.indexOf('\n'); i !== -1; i = f.indexOf('\n', i + 1)) n++;
  return n;
}

/** Reads CSV with a header row from text pieces; each record is checked as it is parsed, so nothing accumulates. Row = record number counting the header as 1. */
export async function readCsv(
  pieces: AsyncIterable<string>,
  checker: RowChecker,
  tick?: () => Promise<void> | void,
  limits: CsvLimits = CSV_LIMITS,
): Promise<void> {
  let header: string[] | undefined;
  let failure: CsvError | undefined;
  /** Line the last record ended on: an overlong row starts after it. */
  let lastLine = 0;
  /** Whether any piece so far held U+FFFD (what the decoder puts for invalid UTF-8): only then is each row searched for it. */
  let replaced = false;
  // csv-parse (30 KB) loads with the first CSV file, not at activation: the build keeps './csvParse' in dist/csv-parse.js.
  // eslint-disable-next-line @typescript-eslint/no-require-imports
  const { parse } = require('./csvParse') as typeof import('./csvParse');
  const options = (sepLine: boolean, delimiter: string, end: LineEnd) => ({
    bom: true,
    relax_column_count: true,
    skip_empty_lines: true,
    record_delimiter: end === '\r' ? ['\r'] : ['\r\n', '\n'],
    max_record_size: limits.rowChars,
    delimiter,
    from_line: sepLine ? 2 : 1,
    on_record: (fields: string[], context: { records: number; lines: number }) => {
      const row = context.records;
      const start = context.lines - lineBreaks(fields, end);
      lastLine = context.lines;
      const span = { start: { line: start, column: 1 }, end: { line: context.lines, column: 1 + (fields.at(-1)?.length ?? 0) } };
      if (!header) {
        header = fields;
        return null;
      }
      if (fields.length !== header.length) {
        checker.report(
          'csv-syntax',
          `The row has ${fields.length} field${fields.length === 1 ? '' : 's'}; the header has ${header.length}.`,
          span,
          row,
        );
      }
      const value: Record<string, string> = {};
      header.forEach((name, i) => {
        if (i < fields.length) value[name] = fields[i];
      });
      const place: RowPlace = { row, line: start, span };
      if (replaced && fields.some((f) => f.includes('\ufffd'))) {
        checker.countBrokenRow();
        checker.report('csv-syntax', notUtf8Message('row', true), span, row);
      } else checker.check(value, place);
      return null;
    },
  });
  let parser: ReturnType<typeof parse> | undefined;
  /** Decides the separator from the first line: a file split by `;` or tabs is named as such and its rows still read and counted. */
  const start = (line: string, end: LineEnd) => {
    const sep = SEP_LINE.exec(line)?.[1];
    const separator = sep ?? otherSeparator(line) ?? ',';
    if (sep === ',') checker.report('csv-syntax', SEP_COMMA_MESSAGE, lineSpan(1), 0);
    else if (separator !== ',') checker.report('csv-syntax', separatorMessage(separator, sep !== undefined), lineSpan(1), 0);
    parser = parse(options(sep !== undefined, separator, end));
    parser.on('error', (error: CsvError) => {
      failure = error;
    });
    parser.resume();
  };
  try {
    for await (const piece of withFirstLine(pieces, start)) {
      if (failure) break;
      if (!replaced) replaced = piece.includes('\ufffd');
      parser?.write(piece);
      await tick?.();
    }
    if (parser && !failure) parser.end();
    if (parser) await finished(parser).catch(() => undefined);
  } finally {
    if (parser && !parser.destroyed) parser.destroy();
  }
  if (failure) {
    const line = Number((failure as unknown as { lines?: number }).lines) || 1;
    checker.countBrokenRow();
    if (failure.code === 'CSV_MAX_RECORD_SIZE') {
      const start = lastLine + 1;
      checker.report(
        'csv-syntax',
        `The row starting on line ${start} is longer than ${millions(limits.rowChars)} characters, so it and the rest of the file were not read: is a quote left open?`,
        lineSpan(start),
        start,
      );
    } else checker.report('csv-syntax', `The file is not valid CSV: ${failure.message.replace(/\.?$/, '.')}`, lineSpan(line), line);
  }
}
