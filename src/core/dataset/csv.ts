import type { CsvError } from 'csv-parse';
import { finished } from 'node:stream/promises';
import { lineSpan, type RowPlace } from './positions';
import type { RowChecker } from './rows';
import { MAX_LINE_CHARS } from '../text/lines';

/** How much of a CSV file is held at once: a row (csv-parse stops past it, so memory stays bounded) and one field of a row. */
export interface CsvLimits {
  rowChars: number;
  fieldChars: number;
}

/** A row may be as long as a JSON Lines line; no prompt, id or answer comes near a field of 1 M characters, so a longer one is a quote left open. */
export const CSV_LIMITS: CsvLimits = { rowChars: MAX_LINE_CHARS, fieldChars: 1024 * 1024 };

const millions = (chars: number) => `${chars / 1024 / 1024} M`;

function newlines(fields: string[]): number {
  let n = 0;
  for (const f of fields) for (let i = f.indexOf('\n'); i !== -1; i = f.indexOf('\n', i + 1)) n++;
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
  // csv-parse (30 KB) loads with the first CSV file, not at activation: the build keeps './csvParse' in dist/csv-parse.js.
  // eslint-disable-next-line @typescript-eslint/no-require-imports
  const { parse } = require('./csvParse') as typeof import('./csvParse');
  const parser = parse({
    bom: true,
    relax_column_count: true,
    skip_empty_lines: true,
    record_delimiter: ['\r\n', '\n'],
    max_record_size: limits.rowChars,
    on_record: (fields: string[], context) => {
      const row = context.records;
      const start = context.lines - newlines(fields);
      lastLine = context.lines;
      const span = { start: { line: start, column: 1 }, end: { line: context.lines, column: 1 + (fields.at(-1)?.length ?? 0) } };
      const long = fields.findIndex((f) => f.length > limits.fieldChars);
      if (long !== -1) {
        const name = header?.[long] ? `\`${header[long]}\`` : `number ${long + 1}`;
        checker.report(
          'csv-syntax',
          `Field ${name} is ${fields[long].length.toLocaleString('en')} characters, more than the ${millions(limits.fieldChars)} a field may have, so the ${header ? 'row' : 'header'} was not checked: is a quote left open?`,
          span,
          row,
        );
        if (header) checker.countBrokenRow();
        else header = fields;
        return null;
      }
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
      checker.check(value, place);
      return null;
    },
  });
  parser.on('error', (error: CsvError) => {
    failure = error;
  });
  parser.resume();
  try {
    for await (const piece of pieces) {
      if (failure) break;
      parser.write(piece);
      await tick?.();
    }
    if (!failure) parser.end();
    await finished(parser).catch(() => undefined);
  } finally {
    if (!parser.destroyed) parser.destroy();
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
