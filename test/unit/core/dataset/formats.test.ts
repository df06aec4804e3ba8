import { strict as assert } from 'node:assert';
import { createReadStream, readFileSync } from 'node:fs';
import path from 'node:path';
import {
  compareTrainVal,
  roleFromName,
  summaryLine,
  trainValOverlap,
  validateDataset,
  validateText,
  type DatasetFormat,
  type DatasetReport,
} from '../../../../src/core/dataset';
import { check, codes, jsonl, where, wordleRow } from './helpers';

const fixtures = path.resolve(__dirname, '../../../fixtures/datasets');
const formats: DatasetFormat[] = ['jsonl', 'json', 'csv', 'parquet'];

function validateFile(file: string, format: DatasetFormat): Promise<DatasetReport> {
  return validateDataset(createReadStream(file), { format, role: roleFromName(file) });
}

/** The same rows written in each format the service reads. */
async function inFormat(rows: Record<string, string>[], format: DatasetFormat): Promise<Uint8Array> {
  const columns = Object.keys(rows[0]);
  if (format === 'jsonl') return Buffer.from(rows.map((r) => JSON.stringify(r)).join('\n') + '\n');
  if (format === 'json') return Buffer.from(`[\n${rows.map((r) => JSON.stringify(r)).join(',\n')}\n]`);
  if (format === 'csv') {
    const field = (t: string) => `"${t.replace(/"/g, '""')}"`;
    return Buffer.from([columns.join(','), ...rows.map((r) => columns.map((c) => field(r[c])).join(','))].join('\r\n'));
  }
  const { parquetWriteBuffer } = await import('hyparquet-writer');
  return new Uint8Array(
    parquetWriteBuffer({ columnData: columns.map((name) => ({ name, data: rows.map((r) => r[name]), type: 'STRING' as const })) }),
  );
}

async function* once(bytes: Uint8Array) {
  yield bytes;
}

/** Findings as "row code", with CSV rows counted without the header so every format compares equal. */
function byRow(report: DatasetReport): string[] {
  return report.findings.map((f) => `${report.format === 'csv' && f.row ? f.row - 1 : f.row} ${f.code}`);
}

describe('dataset formats', () => {
  for (const dir of ['', 'v640']) {
    for (const format of formats) {
      it(`the real ${dir || 'v600'} files validate clean as ${format}, no overlap`, async () => {
        const train = await validateFile(path.join(fixtures, dir, `training-data.${format}`), format);
        const val = await validateFile(path.join(fixtures, dir, `validation-data.${format}`), format);
        assert.equal(train.rows, dir ? 640 : 600);
        assert.equal(val.rows, dir ? 128 : 100);
        assert.equal(train.stepsPerEpoch, dir ? 5 : 4);
        assert.equal(summaryLine(train, 0), dir ? '640 rows · 5 steps/epoch @128 · ✓' : '600 rows · 4 steps/epoch @128 · ✓');
        assert.equal(summaryLine(val, 2), `${dir ? 128 : 100} rows · validation · $(error) 2 errors`);
        assert.deepEqual(
          [...train.findings, ...val.findings].filter((f) => f.severity !== 'info'),
          [],
        );
        assert.deepEqual(compareTrainVal(train, val, { training: 't', validation: 'v' }).overlap, { ids: [], prompts: [], answers: [] });
      });
    }
  }

  it('the same broken rows give the same findings in every format', async () => {
    const task = (o: object) => ({ prompt: JSON.stringify(o) });
    const rows = [
      task({ prompt: 'Guess the 5-letter word', answer: 'crane', id: 'w0' }),
      task({ prompt: 'Guess the 5-letter word', answer: 'CRANES', id: 'w1' }),
      task({ prompt: 'Guess the 5-letter word', id: 'w2' }),
      task({ prompt: 'Guess the 5-letter word', answer: 'slate' }),
      task({ prompt: 'Guess the 5-letter word', answer: 'crane', id: 'w0' }),
      task({ prompt: 'Guess the 5-letter word: pasta', answer: 'pasta', id: 'w5' }),
      { prompt: '{"prompt": "Guess the 5-letter word", "answer": ' },
      { prompt: '   ' },
    ];
    const expected = [
      '2 bad-answer',
      '3 missing-answer',
      '4 missing-id',
      '5 duplicate-answer',
      '5 duplicate-id',
      '6 answer-leak',
      '7 inner-json-syntax',
      '8 empty-prompt',
    ];
    for (const format of formats) {
      const report = await validateDataset(once(await inFormat(rows, format)), { format });
      assert.deepEqual(byRow(report), expected, format);
    }
    const flat = [{ prompt: 'Guess the 5-letter word', answer: 'crane', id: 'w0' }];
    for (const format of formats)
      assert.deepEqual(byRow(await validateDataset(once(await inFormat(flat, format)), { format })), ['1 flat-row'], format);
  });

  it('CRLF, a BOM and a missing final newline never shift positions', async () => {
    const lines = [wordleRow('crane', 'a'), '{"prompt": 1}', '{"x": ]'];
    const plain = where(await check(lines.join('\n')));
    assert.deepEqual(plain, ['2:12 prompt-not-string', '3:7 json-syntax']);
    assert.deepEqual(where(await check('\ufeff' + lines.join('\r\n') + '\r\n')), plain);
    const bytes = Buffer.concat([Buffer.from([0xef, 0xbb, 0xbf]), Buffer.from(lines.join('\r\n'))]);
    // Split inside the BOM and inside a CRLF: chunk borders must not matter.
    const pieces = [
      bytes.subarray(0, 2),
      bytes.subarray(2, 40),
      bytes.subarray(40, bytes.indexOf(0x0a, 40)),
      bytes.subarray(bytes.indexOf(0x0a, 40)),
    ];
    async function* chunks() {
      yield* pieces;
    }
    assert.deepEqual(where(await validateDataset(chunks(), { format: 'jsonl' })), plain);
  });

  it('a UTF-16 or UTF-32 byte order mark cut across chunks is still refused with the same finding', async () => {
    const marks = [
      [0xff, 0xfe],
      [0xfe, 0xff],
      [0xff, 0xfe, 0, 0],
      [0, 0, 0xfe, 0xff],
    ];
    for (const format of ['jsonl', 'json', 'csv'] as DatasetFormat[]) {
      for (const mark of marks) {
        const bytes = Buffer.concat([Buffer.from(mark), Buffer.from('[{"prompt": "x"}]\n')]);
        const whole = await validateDataset(once(bytes), { format });
        async function* byteByByte() {
          for (const byte of bytes) yield Uint8Array.of(byte);
        }
        const split = await validateDataset(byteByByte(), { format });
        assert.deepEqual(codes(whole), ['unreadable'], `${format} ${mark}`);
        assert.deepEqual(split.findings, whole.findings, `${format} ${mark}`);
      }
    }
  });

  it('JSON arrays: each element keeps its own position; a syntax error is exact', async () => {
    const text = `[\n  ${wordleRow('crane', 'a')},\n  {"prompt": 5}\n]`;
    assert.deepEqual(where(await validateText(text, { format: 'json' })), ['3:14 prompt-not-string']);
    assert.deepEqual(where(await validateText('[\n  {"prompt": "a"}\n  {"prompt": "b"}\n]', { format: 'json' })), ['3:3 json-syntax']);
    assert.deepEqual(codes(await validateText('{"prompt": "a"}', { format: 'json' })), ['json-syntax']);
  });

  it('overlap between training and validation is reported on both files', async () => {
    const train = await check(jsonl([wordleRow('crane', 't1'), wordleRow('slate', 't2')]));
    const val = await check(jsonl([wordleRow('pasta', 'v1'), wordleRow('crane', 't2')]));
    const result = compareTrainVal(train, val, { training: 'train.jsonl', validation: 'val.jsonl' });
    assert.deepEqual(result.overlap, { ids: ['t2'], prompts: [], answers: ['crane'] });
    const streamed = await check(jsonl([wordleRow('pasta', 'v1'), wordleRow('crane', 't2')]), {
      against: train.keyTables,
      trackKeys: false,
    });
    assert.equal(streamed.ids.size, 0);
    assert.deepEqual(trainValOverlap(streamed, { training: 'train.jsonl', validation: 'val.jsonl' }), result);
    assert.deepEqual(result.training.map((f) => `${f.span.start.line} ${f.related?.[0].span.start.line}`).sort(), ['1 2', '2 2']);
    assert.deepEqual(
      result.validation.map((f) => f.span.start.line),
      [2, 2],
    );
    assert.equal(result.validation[0].related?.[0].path, 'train.jsonl');
  });

  it('overlap past the per-code cap is one summary finding per file, counted whole, like every other code', async () => {
    const rows = (prefix: string) => Array.from({ length: 130 }, (_, i) => wordleRow('crane', `${prefix}${i}`));
    const train = await check(jsonl(rows('t')));
    const val = await check(jsonl(rows('t')));
    const result = compareTrainVal(train, val, { training: 'train.jsonl', validation: 'val.csv' }, 100);
    // 130 shared ids and one shared answer (line 1 has both): 131 hits on each file, the 101st on line 100.
    assert.equal(result.count, 131);
    for (const [findings, where] of [
      [result.training, 'lines'],
      [result.validation, 'rows'],
    ] as const) {
      assert.equal(findings.length, 101);
      assert.ok(findings.every((f) => f.code === 'train-val-overlap' && f.severity === 'error'));
      assert.match(
        findings[100].message,
        new RegExp(`^31 more train-val-overlap findings not listed \\(131 in all\\), e\\.g\\. ${where} 100, 101, 102, 103, 104\\.$`),
      );
    }
    assert.equal(compareTrainVal(train, val, { training: 't', validation: 'v' }).overlap.ids.length, 130, 'the overlap itself is whole');
  });

  it('a raw NUL or other control character in a JSON file shows escaped in the message, never raw', async () => {
    for (const text of ['[{"prompt": "ab"}\u0000]', '[\u0000]', '\u0000', '[{"prompt": "x",\u0001 "a": 1}]']) {
      const [finding] = (await validateText(text, { format: 'json' })).findings;
      assert.equal(finding.code, 'json-syntax', JSON.stringify(text));
      assert.match(finding.message, /\\u000[01]/, finding.message);
      assert.ok(![...finding.message].some((c) => c.charCodeAt(0) < 0x20), JSON.stringify(finding.message));
    }
    const spoof = await validateText(jsonl([wordleRow('crane', 'a\u202e'), wordleRow('slate', 'a\u202e')]), { format: 'jsonl' });
    const duplicate = spoof.findings.find((f) => f.code === 'duplicate-id')!;
    assert.equal(duplicate.message, "The id 'a\\u202e' is already used on line 1.");
    assert.equal(duplicate.related?.[0].message, "first use of 'a\\u202e'");
  });

  describe('garbage gives clear errors, never an exception', () => {
    it('binary bytes and invalid UTF-8', async () => {
      const binary = Buffer.from(Array.from({ length: 4096 }, (_, i) => (i * 37) % 256));
      const r = await validateDataset(once(binary), { format: 'jsonl' });
      assert.ok(r.findings.length > 0 && r.findings.every((f) => f.code === 'json-syntax'));
      const invalid = Buffer.concat([Buffer.from('{"prompt": "caf'), Buffer.from([0xc3, 0x28]), Buffer.from('"}\n')]);
      const u = await validateDataset(once(invalid), { format: 'jsonl' });
      assert.deepEqual(where(u), ['1:16 json-syntax']);
      assert.match(u.findings[0].message, /UTF-8/);
    });

    it("Windows-1252 bytes in a CSV or a JSON array, as Excel's plain CSV and Python's open() on Windows write them", async () => {
      const task = (id: string) => JSON.stringify({ prompt: 'Café', answer: '1', id });
      const cp1252 = (text: string) => Buffer.from(text, 'latin1');
      const csv = `prompt\n"${task('a').replace(/"/g, '""')}"\n"${task('b').replace(/"/g, '""').replace('Café', 'Cafe')}"\n`;
      const fromCsv = await validateDataset(once(cp1252(csv)), { format: 'csv' });
      assert.deepEqual([where(fromCsv), fromCsv.rows], [['2:1 csv-syntax'], 2]);
      assert.match(fromCsv.findings[0].message, /not valid UTF-8 .*Excel: \*CSV UTF-8\*/);
      const json = `[${JSON.stringify({ prompt: task('a') })},\n${JSON.stringify({ prompt: task('b') })}]`;
      const fromJson = await validateDataset(once(cp1252(json)), { format: 'json' });
      assert.deepEqual([where(fromJson), fromJson.rows], [['1:30 json-syntax', '2:29 json-syntax'], 2]);
      assert.match(fromJson.findings[0].message, /encoding="utf-8"/);
      // The same text as UTF-8 is clean: the finding is the bytes', not the character's.
      assert.deepEqual(codes(await validateDataset(once(Buffer.from(json)), { format: 'json' })), []);
    });

    it('rows spread over lines: read as rows when a `}` at column 1 closes them, else each line as one', async () => {
      const pretty = [wordleRow('crane', 'a'), wordleRow('slate', 'a')].map((r) => JSON.stringify(JSON.parse(r), null, 2)).join('\n');
      const read = await check(`${pretty}\n`);
      assert.deepEqual([where(read), read.rows], [['1:1 json-syntax', '5:13 duplicate-id'], 2]);
      assert.match(read.findings[0].message, /^This row is written over lines 1–3/);
      // A lone `{` then rows: the `{` is one broken line, the rows after it are read, none lost.
      const lone = await check(jsonl(['{', wordleRow('crane', 'a'), '{', '  "prompt": "x"', wordleRow('slate', 'b')]));
      assert.deepEqual([where(lone), lone.rows], [['1:2 json-syntax', '3:2 json-syntax', '4:11 json-syntax'], 5]);
    });

    it('a 10 MB single line, an empty file', async () => {
      const big = `{"prompt": "${'a'.repeat(10 * 1024 * 1024)}`;
      assert.deepEqual(codes(await check(big)), ['json-syntax']);
      const empty = await check('');
      assert.deepEqual(codes(empty), ['too-few-rows']);
      assert.match(empty.findings[0].message, /no rows/);
    });

    it('a truncated Parquet footer', async () => {
      const whole = readFileSync(path.join(fixtures, 'validation-data.parquet'));
      const r = await validateDataset(once(whole.subarray(0, whole.length - 20)), { format: 'parquet' });
      assert.deepEqual(codes(r), ['unreadable']);
      assert.match(r.findings[0].message, /cut short/);
    });

    it('a CSV with ragged rows and a broken quote', async () => {
      const r = await validateText('prompt,extra\n"Guess a",x\n"Guess b",x,y\n"Guess c"\n', { format: 'csv', convention: 'none' });
      assert.deepEqual(byRow(r), ['2 csv-syntax', '3 csv-syntax']);
      const q = await validateText('prompt\n"a"b\n', { format: 'csv' });
      assert.deepEqual(codes(q), ['csv-syntax']);
    });
  });
});

describe('dataset validation in slices', () => {
  const big = jsonl(Array.from({ length: 20_000 }, (_, i) => wordleRow('crane', `w${i}`)));

  it('yields between slices of a large text, so the editor can type in between', async () => {
    let ticks = 0;
    const report = await validateText(big, { format: 'jsonl', tick: () => void ticks++ });
    assert.equal(report.rows, 20_000);
    assert.ok(ticks >= Math.floor(big.length / (256 * 1024)), `${ticks} ticks for ${big.length} characters`);
  });

  it('stops when a newer edit cancels the run', async () => {
    let ticks = 0;
    const cancelled = new Error('superseded');
    await assert.rejects(
      validateText(big, {
        format: 'jsonl',
        tick: () => {
          if (++ticks === 2) throw cancelled;
        },
      }),
      cancelled,
    );
    assert.equal(ticks, 2);
  });
});
