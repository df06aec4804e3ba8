import type { CsvError } from 'csv-parse';
import { finished } from 'node:stream/promises';
import { lineSpan, type RowPlace } from './positions';
import type { RowChecker } from './rows';

function newlines(fields: string[]): number {
  let n = 0;
  for (const f of fields) for (let i = f.indexOf('\n'); i !== -1; i = f.indexOf('\n', i + 1)) n++;
  return n;
}

/** Reads CSV with a header row from text pieces; each record is checked as it is parsed, so nothing accumulates. Row = record number counting the header as 1. */
export async function readCsv(pieces: AsyncIterable<string>, checker: RowChecker, tick?: () => Promise<void> | void): Promise<void> {
  let header: string[] | undefined;
  let failure: CsvError | undefined;
  // csv-parse (30 KB) loads with the first CSV file, not at activation: the build keeps './csvParse' in dist/csv-parse.js.
  // eslint-disable-next-line @typescript-eslint/no-require-imports
  const { parse } = require('./csvParse') as typeof import('./csvParse');
  const parser = parse({
    bom: true,
    relax_column_count: true,
    skip_empty_lines: true,
    record_delimiter: ['\r\n', '\n'],
    on_record: (fields: string[], context) => {
      const row = context.records;
      const start = context.lines - newlines(fields);
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
    checker.report('csv-syntax', `The file is not valid CSV: ${failure.message.replace(/\.?$/, '.')}`, lineSpan(line), line);
  }
}
