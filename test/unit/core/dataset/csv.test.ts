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

describe('CSV row and field caps', () => {
  it('a row past the row cap ends the read with one finding at the line it starts on; the rows before it are checked', async () => {
    const checker = new RowChecker({ format: 'csv' });
    const text = `prompt\n${taskRow('crane', 'a')}\n${taskRow('cr4ne', 'b')}\n"${'x'.repeat(500)}\n${taskRow('slate', 'c')}\n`;
    await readCsv(pieces(text.slice(0, 100), text.slice(100)), checker, undefined, { rowChars: 200, fieldChars: 100 });
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

  it('a field past the field cap is one finding naming the column; the row is counted, not checked, and reading goes on', async () => {
    const huge = 'x'.repeat(CSV_LIMITS.fieldChars + 1);
    const text = `prompt\n${taskRow('crane', 'a')}\n"${huge}"\n${taskRow('cr4ne', 'c')}\n`;
    const report = await validateDataset(pieces(text), { format: 'csv' });
    assert.deepEqual(
      report.findings.map((f) => `${f.span.start.line} ${f.code}`),
      ['3 csv-syntax', '4 bad-answer'],
    );
    assert.equal(
      report.findings[0].message,
      'Field `prompt` is 1,048,577 characters, more than the 1 M a field may have, so the row was not checked: is a quote left open?',
    );
    assert.equal(report.rows, 3);
  });

  it('a header field past the cap is reported and still names the columns', async () => {
    const checker = new RowChecker({ format: 'csv' });
    await readCsv(pieces(`prompt${'_'.repeat(100)}\n${taskRow('crane', 'a')}\n`), checker, undefined, { rowChars: 1000, fieldChars: 100 });
    const report = checker.finish();
    assert.deepEqual(
      report.findings.map((f) => `${f.span.start.line} ${f.code}`),
      ['1 csv-syntax', '2 missing-prompt'],
    );
    assert.match(report.findings[0].message, /^Field number 1 is 106 characters, more than the .* so the header was not checked/);
    assert.equal(report.rows, 1);
  });
});
