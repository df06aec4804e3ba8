import { scanValue, skipWhitespace } from './json-scan';
import { LineIndex, TextRow } from './positions';
import type { RowChecker } from './rows';

/** Reads a JSON array of rows, giving each element its own position; stops at the first syntax error, which it reports exactly. */
export async function readJsonArray(text: string, checker: RowChecker, tick?: (rows: number) => Promise<void> | void): Promise<void> {
  const start = text.charCodeAt(0) === 0xfeff ? 1 : 0;
  const body = start ? text.slice(start) : text;
  const index = new LineIndex(body);
  const pos = (offset: number) => index.position(offset);
  const syntax = (offset: number, message: string) => {
    const p = index.position(offset);
    checker.report('json-syntax', `The file is not a JSON array: ${message}.`, { start: p, end: { line: p.line, column: p.column + 1 } }, 0);
  };
  let i = skipWhitespace(body, 0, body.length);
  if (i >= body.length) return;
  if (body[i] !== '[') {
    syntax(i, `expected '[' at the start, found '${body[i]}' (a JSON dataset is an array of objects; use .jsonl for one object per line)`);
    return;
  }
  i = skipWhitespace(body, i + 1, body.length);
  let row = 0;
  if (body[i] === ']') i++;
  else {
    for (;;) {
      const end = scanValue(body, i, body.length);
      if (typeof end !== 'number') {
        checker.countBrokenRow();
        syntax(end.offset, end.message);
        return;
      }
      row++;
      checker.check(JSON.parse(body.slice(i, end)), new TextRow(row, pos(i).line, body, i, end, index));
      if (tick && row % 2000 === 0) await tick(row);
      i = skipWhitespace(body, end, body.length);
      if (body[i] === ',') {
        i = skipWhitespace(body, i + 1, body.length);
        continue;
      }
      if (body[i] === ']') {
        i++;
        break;
      }
      syntax(i, i >= body.length ? "a ']' is missing at the end" : `expected ',' or ']' after row ${row}, found '${body[i]}'`);
      return;
    }
  }
  const rest = skipWhitespace(body, i, body.length);
  if (rest < body.length) syntax(rest, `unexpected '${body[rest]}' after the closing ']'`);
}
