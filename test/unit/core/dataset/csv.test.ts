import { strict as assert } from 'node:assert';
import { validateDataset } from '../../../../src/core/dataset';
import { CSV_LIMITS, readCsv } from '../../../../src/core/dataset/csv';
import { RowChecker } from '../../../../src/core/dataset/rows';
import { ceiling } from '../../../host/lib/ceiling';

/** A task row in the Wordle convention, as a CSV line with the prompt column quoted. */
function taskRow(answer: string, id: string): string {
  return `"${JSON.stringify({ prompt: 'Guess the 5-letter word', answer, id }).replace(/"/g, '""')}"`;
}

async function* pieces(...texts: string[]): AsyncGenerator<string> {
  yield* texts;
}

describe('CSV row cap', () => {
  it('a row past the row cap ends the read with one finding at the line it starts on; the rows before it are checked', async () => {
    const checker = new RowChecker({ format: 'csv' });
    const text = `prompt\n${taskRow('crane', 'a')}\n${taskRow('cr4ne', 'b')}\n"${'x'.repeat(500)}\n${taskRow('slate', 'c')}\n`;
    await readCsv(pieces(text.slice(0, 100), text.slice(100)), checker, undefined, { rowChars: 200 });
    const report = checker.finish();
    assert.deepEqual(
      report.findings.map((f) => `${f.span.start.line} ${f.code}`),
      ['3 bad-answer', '4 csv-syntax'],
    );
    assert.match(
      report.findings[1].message,
      /^The row starting on line 4 is longer than [\d.]+ M characters, so it and the rest of the file were not read: is a quote left open\?$/,
    );
    assert.equal(report.rows, 3);
  });

  it('a quote left open in a large file stops at the real row cap instead of holding the file', async function () {
    // 66 M characters through the parser: seconds on a loaded machine.
    this.timeout(ceiling(120_000));
    const mb = 'some prompt text without quotes,w1\n'.repeat(Math.ceil((1024 * 1024) / 35));
    async function* chunks() {
      yield `prompt,id\n"${mb}`;
      for (let n = 0; n * mb.length < CSV_LIMITS.rowChars + 2 * mb.length; n++) yield mb;
    }
    const report = await validateDataset(chunks(), { format: 'csv' });
    assert.deepEqual(
      report.findings.map((f) => f.code),
      ['csv-syntax'],
    );
    assert.match(report.findings[0].message, /^The row starting on line 2 is longer than 64 M characters, so it and the rest of the file/);
  });

  it('a prompt of 1.5 MiB is read and counted like any other', async () => {
    const long = JSON.stringify({ prompt: `Summarize: ${'lorem ipsum '.repeat(131_072)}`, answer: 'a summary', id: 'long' });
    const text = `prompt\n${taskRow('crane', 'a')}\n"${long.replace(/"/g, '""')}"\n${taskRow('slate', 'c')}\n`;
    const report = await validateDataset(pieces(text.slice(0, 1000), text.slice(1000)), { format: 'csv' });
    assert.ok(long.length > 1.5 * 1024 * 1024);
    assert.deepEqual(report.findings, []);
    assert.equal(report.rows, 3);
  });
});

describe('CSV separated by semicolons', () => {
  const row = (answer: string, id: string) => JSON.stringify({ prompt: 'Guess the 5-letter word', answer, id }).replace(/"/g, '""');
  const rows = Array.from({ length: 5 }, (_, i) => `"${row(['crane', 'slate', 'pasta', 'riser', 'tower'][i], `w${i}`)}";note ${i}`);

  it('a header split by `;` is named as such, with the rows the file really has', async () => {
    const report = await validateDataset(pieces(`prompt;note\n${rows.join('\n')}\n`), { format: 'csv' });
    assert.deepEqual(
      report.findings.map((f) => f.code),
      ['csv-syntax'],
    );
    assert.match(report.findings[0].message, /^The file is separated by `;`, as Excel writes CSV .* would see one column/);
    assert.equal(report.rows, 5);
  });

  it("Excel's `sep=;` first line is named, and the rows after it counted", async () => {
    const report = await validateDataset(pieces(`sep=;\r\nprompt;note\r\n${rows.join('\r\n')}\r\n`), { format: 'csv' });
    assert.deepEqual(
      report.findings.map((f) => f.code),
      ['csv-syntax'],
    );
    assert.match(report.findings[0].message, /its first line is `sep=;`/);
    assert.equal(report.rows, 5);
  });

  it('a header split by tabs (TSV saved as .csv) is named as such, with its rows; a tab inside quotes of a comma file is not', async () => {
    const tsv = rows.map((r) => r.replace(';note', '\tnote'));
    const report = await validateDataset(pieces(`prompt\tnote\n${tsv.join('\n')}\n`), { format: 'csv' });
    assert.deepEqual(
      report.findings.map((f) => f.code),
      ['csv-syntax'],
    );
    assert.match(
      report.findings[0].message,
      /^The file is separated by tabs \(tab-separated values\): the service reads comma-separated CSV/,
    );
    assert.equal(report.rows, 5);
    const comma = await validateDataset(pieces(`"prompt\tx",note\n"${row('crane', 'a')}",one\n`), { format: 'csv' });
    assert.deepEqual(
      comma.findings.map((f) => f.code),
      ['missing-prompt'],
    );
  });

  it('a `sep=,` first line is named too: other readers take it for the header', async () => {
    const comma = rows.map((r) => r.replace(';note', ',note'));
    const report = await validateDataset(pieces(`sep=,\nprompt,note\n${comma.join('\n')}\n`), { format: 'csv' });
    assert.deepEqual(
      report.findings.map((f) => f.code),
      ['csv-syntax'],
    );
    assert.match(report.findings[0].message, /^The first line is `sep=,`, .*read it as the header/);
    assert.equal(report.rows, 5);
  });

  it('a `;` inside quoted fields of a comma-separated file is not a separator', async () => {
    const report = await validateDataset(pieces(`"prompt;x",note\n"${row('crane', 'a').replace('word', 'word; go')}",one\n`), {
      format: 'csv',
    });
    assert.deepEqual(
      report.findings.map((f) => f.code),
      ['missing-prompt'],
    );
    assert.equal(report.rows, 1);
  });

  it("lines ended by a lone \\r (Excel's CSV (Macintosh)) are rows, placed on their lines, even when a piece ends between \\r and the next", async () => {
    const text = `prompt,note\r${taskRow('cr4ne', 'a')},"two\nlines"\r${taskRow('crane', 'b')},x\r${taskRow('sl4te', 'c')},y\r`;
    const cut = text.indexOf('\r') + 1;
    const checker = new RowChecker({ format: 'csv' });
    await readCsv(pieces(text.slice(0, cut), text.slice(cut)), checker);
    const report = checker.finish();
    assert.equal(report.rows, 3);
    assert.deepEqual(
      report.findings.map((f) => `${f.span.start.line} ${f.code}`),
      // Where an editor puts them: the `\n` inside quotes breaks a line there too.
      ['2 bad-answer', '5 bad-answer'],
    );
  });
});
