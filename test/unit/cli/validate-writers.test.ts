import { strict as assert } from 'node:assert';
import { mkdtempSync, readdirSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { main } from '../../../src/cli';
import { validateParquet } from '../../../src/core/dataset';
import { decodeParquet, parquetFile } from '../../../src/core/dataset/parquet';
import { promptKey } from '../../../src/core/dataset/rowText';
import { validateSource } from '../../../src/services/datasets/sources';

// Files pyarrow, pandas (both engines), polars, DuckDB and Hugging Face datasets wrote (test/fixtures/datasets/writers/write.py), each with the row count pyarrow reads.
const writers = path.resolve(__dirname, '../../fixtures/datasets/writers');
const expected = readFileSync(path.join(writers, 'rows.txt'), 'utf8')
  .trim()
  .split('\n')
  .map((line) => line.split(' '))
  .map(([name, rows, groups, codec]) => ({ name, rows: Number(rows), groups: Number(groups), codec }));

interface FileReport {
  path: string;
  rows: number;
  errors: { code: string; message: string }[];
  warnings: { code: string; message: string }[];
  counts: Record<string, number>;
}

/** `mtrl validate FILES… --json` in process: its exit code, each file's report, and what it wrote to stderr. */
async function validateJson(files: string[], ...options: string[]): Promise<{ code: number; reports: FileReport[]; err: string }> {
  let out = '';
  let err = '';
  const code = await main(['validate', ...files, ...options, '--json'], {
    out: (t) => (out += t),
    err: (t) => (err += t),
    stdin: () => [],
  });
  return { code, reports: (JSON.parse(out) as { files: FileReport[] }).files, err };
}

describe('mtrl validate on Parquet files real writers wrote', () => {
  it('covers every codec, page version, dictionary, row-group and large_string variant', () => {
    const codecs = new Set(expected.map((e) => e.codec));
    for (const codec of ['SNAPPY', 'GZIP', 'ZSTD', 'BROTLI', 'LZ4', 'UNCOMPRESSED']) assert.ok(codecs.has(codec), codec);
    const names = expected.map((e) => e.name);
    for (const writer of ['pyarrow', 'pandas', 'fastparquet', 'polars', 'duckdb', 'datasets'])
      assert.ok(
        names.some((n) => n.startsWith(writer)),
        writer,
      );
    for (const variant of ['v1-dict', 'v2-plain-large', 'polars-default', 'duckdb-default', 'duckdb-zstd-v2'])
      assert.ok(
        names.some((n) => n.includes(variant)),
        variant,
      );
    assert.ok(expected.some((e) => e.groups > 1) && expected.some((e) => e.groups === 1));
  });

  it('decodes each file with the row count pyarrow reads and its nulls as null', async () => {
    for (const { name, rows } of expected) {
      const file = await parquetFile(path.join(writers, `${name}.parquet`));
      const read: Record<string, unknown>[] = [];
      try {
        for await (const event of decodeParquet(file)) {
          assert.equal(event.kind, 'rows', `${name}: ${event.kind === 'unreadable' ? event.message : ''}`);
          if (event.kind === 'rows') read.push(...event.rows);
        }
      } finally {
        await file.close();
      }
      assert.equal(read.length, rows, name);
      assert.deepEqual([read[0].note, read[1].note, JSON.parse(String(read[299].prompt)).id], [null, 'note 1', 'ticket-0299'], name);
    }
  });

  it('mtrl validate reads them on its worker thread, clean, exit 0', async () => {
    // One file per writer and codec family: the worker runs the same decoder the test above runs on every file.
    const some = expected.filter((e) =>
      [
        'polars-default',
        'pandas-gzip',
        'fastparquet-zstd',
        'pyarrow-brotli-v2-plain-large',
        'pyarrow-lz4-v1-dict',
        'duckdb-zstd-v2',
      ].includes(e.name),
    );
    const { code, reports, err } = await validateJson(some.map((e) => path.join(writers, `${e.name}.parquet`)));
    assert.deepEqual(
      reports.map((r) => `${path.basename(r.path, '.parquet')} ${r.rows} ${r.errors.length + r.warnings.length}`),
      some.map((e) => `${e.name} ${e.rows} 0`),
      err,
    );
    assert.equal(code, 0, err);
  });

  it("names a prompt column of nulls, int64 or timestamps in the user's words", async () => {
    const messages: string[] = [];
    for (const kind of ['null', 'int64', 'timestamp']) {
      const file = await parquetFile(path.join(writers, 'kinds', `${kind}.parquet`));
      try {
        const report = await validateParquet(file, { format: 'parquet' });
        messages.push(report.findings.find((f) => f.code === 'prompt-not-string')?.message ?? '');
      } finally {
        await file.close();
      }
    }
    assert.match(messages[0], /value is null \(an empty cell\)/);
    assert.match(messages[1], /value is an integer;/);
    assert.match(messages[2], /value is a timestamp;/);
  });
});

describe('mtrl validate on CSV, JSON Lines and JSON files real writers wrote', () => {
  // text/: the same 50 tasks as pandas, polars and Hugging Face datasets write them (writers/write.py).
  const text = path.join(writers, 'text');
  const files = readdirSync(text).sort();
  // The first task's prompt string, as Python's json.dumps wrote it before each writer escaped it its own way.
  const first = String.raw`{"id": "ticket-0000", "prompt": "Customer 0 asks: reset A-00000/pwd? Ünï ✓ \"quoted\", comma\nsecond line", "answer": "Case 0."}`;

  it('covers each writer and format, gzipped files too', () => {
    for (const name of [
      'pandas.csv',
      'pandas-index.csv',
      'pandas-crlf.csv',
      'pandas-cr.csv',
      'pandas.jsonl',
      'pandas-records.json',
      'polars.json',
      'datasets.csv',
      'datasets.jsonl',
      'pandas.jsonl.gz',
      'pandas.csv.gz',
    ])
      assert.ok(files.includes(name), name);
  });

  it('reads every task of each file, clean but for naming the gzipped ones, exit 0', async () => {
    const { code, reports, err } = await validateJson(
      files.map((f) => path.join(text, f)),
      '--batch',
      '8',
    );
    assert.deepEqual(
      reports.map((r) => `${path.basename(r.path)} ${r.rows} ${r.errors.length} ${r.warnings.map((w) => w.code).join()}`),
      files.map((f) => `${f} 50 0 ${f.endsWith('.gz') ? 'compressed' : ''}`),
      err,
    );
    assert.equal(code, 0, err);
  });

  it('reads the same prompt strings from every file, whatever each writer escaped', async () => {
    const promptsOf = async (file: string) => {
      const report = await validateSource(path.join(text, file), { role: 'training', trackKeys: true });
      return [...report.prompts.keys()].sort();
    };
    const expected = await promptsOf('pandas.csv');
    assert.equal(expected.length, 50);
    assert.ok(expected.includes(promptKey(first)), expected[0]);
    for (const file of files) assert.deepEqual(await promptsOf(file), expected, file);
  });

  it("names the separator of pandas' `;` and tab files, counting their 50 rows, exit 1", async () => {
    const separators = path.join(writers, 'separators');
    const { code, reports } = await validateJson(['pandas-semicolon.csv', 'pandas-tab.csv'].map((f) => path.join(separators, f)));
    assert.deepEqual(
      reports.map((r) => [r.rows, r.errors.map((e) => `${e.code} ${/separated by (`;`|tabs)/.exec(e.message)?.[1]}`)]),
      [
        [50, ['csv-syntax `;`']],
        [50, ['csv-syntax tabs']],
      ],
    );
    assert.equal(code, 1);
  });

  it("reads what Python's json wrote with NaN and Infinity, as Python reads it: each named, every row counted, exit 0", async () => {
    const nan = path.join(writers, 'nan');
    const { code, reports, err } = await validateJson(['json-dump.json', 'json-dumps.jsonl'].map((f) => path.join(nan, f)));
    // 17 tasks with a NaN score (every third), 25 rows with an Infinity weight (every other).
    assert.deepEqual(
      reports.map((r) => [r.rows, r.errors.length, r.warnings.filter((w) => w.code === 'nan-value').length, r.warnings.length]),
      [
        [50, 0, 42, 42],
        [50, 0, 42, 42],
      ],
      err,
    );
    assert.equal(code, 0, err);
  });

  it("names pandas' to_json() layouts that are not rows (its default, split, index, records without lines) and what to write", async () => {
    const layouts = path.join(writers, 'layouts');
    const names = ['default.json', 'default.jsonl', 'index.json', 'records-without-lines.jsonl', 'split.json'];
    const { code, reports } = await validateJson(names.map((f) => path.join(layouts, f)));
    assert.deepEqual(
      reports.map((r) => r.errors.map((e) => `${e.code} ${/orient="\w+"|lines=True/.exec(e.message)?.[0]}`)),
      [
        ['json-syntax orient="columns"'],
        ['prompt-not-string orient="records"'],
        ['json-syntax orient="index"'],
        ['not-object orient="records"'],
        ['json-syntax orient="split"'],
      ],
    );
    for (const r of reports) assert.match(r.errors[0].message, /df\.to_json\(path, orient="records"/, r.path);
    assert.equal(code, 1);
  });

  it('names a prompt column written "Prompt" after an id column, and the rename, in Parquet, CSV and JSON Lines', async () => {
    const files = ['Prompt.parquet', 'Prompt.csv', 'Prompt.jsonl'];
    const { code, reports } = await validateJson(files.map((f) => path.join(writers, 'names', f)));
    assert.deepEqual(
      reports.map((r) => [r.rows, r.counts]),
      files.map(() => [50, { 'missing-prompt': 1 }]),
    );
    for (const r of reports)
      assert.match(
        r.warnings[0].message,
        /first column, `id`, instead\. `Prompt` looks like it: .*`df = df\.rename\(columns=\{"Prompt": "prompt"\}\)`/,
      );
    assert.equal(code, 0);
  });

  it('names a CSV written without its header line (header=False): the first task taken for a column name', async () => {
    const { code, reports } = await validateJson([path.join(writers, 'names', 'no-header.csv')]);
    assert.deepEqual(
      reports.map((r) => [r.rows, r.counts]),
      [[49, { 'missing-prompt': 1 }]],
    );
    assert.match(
      reports[0].warnings[0].message,
      /^The first line is a row, not a header: its first field \(`\{"id": "ticket-0000".{0,80}`\) .* without `header=False`/,
    );
    assert.equal(code, 0);
  });

  it('names chat messages (a conversation per line, as OpenAI fine-tuning files hold) and where the task goes instead', async () => {
    const { code, reports } = await validateJson([path.join(writers, 'layouts', 'chat-messages.jsonl')]);
    assert.deepEqual(
      reports.map((r) => [r.rows, r.counts]),
      [[50, { 'prompt-not-string': 50, 'missing-prompt': 1 }]],
    );
    assert.match(reports[0].errors[0].message, /^The `messages` value is 2 chat messages, .* Give each row a `prompt` column/);
    assert.equal(code, 1);
  });

  it('names rows wrapped under a key of one object (json.dump of {"version", "data": rows}) and what to write', async () => {
    const { code, reports } = await validateJson(['wrapped.json', 'wrapped.jsonl'].map((f) => path.join(writers, 'layouts', f)));
    assert.deepEqual(
      reports.map((r) => [r.rows, r.counts]),
      [
        [0, { 'json-syntax': 1 }],
        [1, { 'not-object': 1 }],
      ],
    );
    assert.match(reports[0].errors[0].message, /one object whose `data` holds the rows .* `json\.dump\(obj\["data"\], f\)`/);
    assert.match(reports[1].errors[0].message, /holds 50 rows under `data`, .* `json\.dump\(obj\["data"\], f\)`/);
    assert.equal(code, 1);
  });

  it('names Windows-1252 files (pandas encoding="cp1252", open() on Windows) as not UTF-8 on every row, counting them', async () => {
    const encodings = path.join(writers, 'encodings');
    const { code, reports } = await validateJson(['open-cp1252.jsonl', 'pandas-cp1252.csv'].map((f) => path.join(encodings, f)));
    assert.deepEqual(
      reports.map((r) => [r.rows, r.counts]),
      [
        [50, { 'json-syntax': 50 }],
        [50, { 'csv-syntax': 50 }],
      ],
    );
    assert.match(reports[1].errors[0].message, /not valid UTF-8/);
    assert.equal(code, 1);
  });

  it('reads rows json.dumps(row, indent=2) spread over lines as the rows they are, naming that once', async () => {
    const { code, reports } = await validateJson([path.join(writers, 'layouts', 'indent-rows.jsonl')]);
    assert.deepEqual(
      reports.map((r) => [r.rows, r.counts, r.errors[0].message.slice(0, 48)]),
      [[50, { 'json-syntax': 1 }, 'This row is written over lines 1–3, as `json.dum']],
    );
    assert.equal(code, 1);
  });
});

describe('mtrl validate on files that hold no dataset the service reads, as users hand them over', () => {
  const others = path.join(writers, 'others');

  /** `mtrl validate FILE` in process, for a name it cannot read as any format: the exit code and what it wrote to stderr. */
  async function refused(file: string): Promise<{ code: number; err: string }> {
    let err = '';
    const code = await main(['validate', path.resolve(others, file)], { out: () => undefined, err: (t) => (err += t), stdin: () => [] });
    return { code, err };
  }

  it('names what pandas compressed otherwise than gzip (bz2, xz, zip, zst) and how to decompress it, exit 2', async () => {
    for (const [file, codec, undo] of [
      ['pandas.jsonl.bz2', 'bzip2', 'bunzip2 -k'],
      ['pandas.jsonl.xz', 'xz', 'unxz -k'],
      ['pandas.jsonl.zip', 'zip', 'unzip'],
      ['pandas.jsonl.zst', 'Zstandard', 'zstd -d'],
    ]) {
      const { code, err } = await refused(file);
      assert.match(err, new RegExp(`compressed with ${codec}, which mtrl does not read .*\\(\`${undo} FILE`), file);
      assert.equal(code, 2, file);
    }
  });

  it('names Arrow files (pandas to_feather, polars write_ipc) and a datasets save_to_disk folder, with the call that writes Parquet', async () => {
    for (const file of ['pandas.feather', 'polars.arrow', 'datasets-saved/data-00000-of-00001.arrow']) {
      const { code, err } = await refused(file);
      assert.match(err, /The file is Arrow, .*`df\.to_parquet\("train\.parquet"\)`/, file);
      assert.equal(code, 2, file);
    }
    const empty = mkdtempSync(path.join(tmpdir(), 'mtrl-folder-'));
    try {
      assert.match((await refused(empty)).err, /mtrl-folder-\w+ is a folder: name the dataset files in it\./);
    } finally {
      rmSync(empty, { recursive: true });
    }
    assert.match((await refused('.')).err, /others is a folder holding 2 dataset files: name them \(`mtrl validate .*others\/\*\.jsonl`\)/);
    const parts = await refused('../text');
    assert.match(parts.err, /text is a folder holding \d+ dataset files: name them \(`mtrl validate .*text\/FILE`\)/);
    const { code, err } = await refused('datasets-saved');
    assert.match(
      err,
      /datasets-saved is a Hugging Face dataset saved with `save_to_disk\(\)`.*`load_from_disk\(".*datasets-saved"\)\.to_parquet/,
    );
    assert.equal(code, 2);
  });

  it('names the same files by their bytes under a dataset name or --format: one unreadable error each, no invented row count', async () => {
    const files = ['pandas.jsonl.bz2', 'pandas.jsonl.xz', 'pandas.jsonl.zip', 'pandas.jsonl.zst', 'pandas.feather', 'polars.arrow'];
    const { code, reports } = await validateJson(
      files.map((f) => path.join(others, f)),
      '--format',
      'jsonl',
      '--train',
      path.join(others, 'pandas.feather'),
    );
    assert.deepEqual(
      reports.map((r) => [r.rows, r.counts]),
      files.map(() => [0, { unreadable: 1 }]),
    );
    assert.deepEqual(
      reports.map((r) => /compressed with (\w+)|(Arrow)/.exec(r.errors[0].message)?.slice(1).find(Boolean)),
      ['bzip2', 'xz', 'zip', 'Zstandard', 'Arrow', 'Arrow'],
    );
    assert.equal(code, 1);
    const parquet = await validateJson(
      [path.join(writers, 'text', 'pandas.jsonl'), path.join(others, 'pandas.feather')],
      '--format',
      'parquet',
    );
    const parquetAsText = await validateJson([path.join(others, 'pandas-parquet.jsonl')]);
    assert.deepEqual(
      [...parquet.reports, ...parquetAsText.reports].map((r) => [r.counts, r.errors[0].message.slice(0, 22)]),
      [
        [{ unreadable: 1 }, 'The file is JSON text '],
        [{ unreadable: 1 }, 'The file is Arrow, as '],
        [{ unreadable: 1 }, 'The file is Parquet (i'],
      ],
    );
  });

  it('names a UTF-16 file (what PowerShell writes) as such, training role, with no row count quoted from the service', async () => {
    const { code, reports } = await validateJson(['--train', path.join(others, 'open-utf16.jsonl')]);
    assert.deepEqual(
      reports.map((r) => [r.rows, r.counts]),
      [[0, { unreadable: 1 }]],
    );
    assert.match(reports[0].errors[0].message, /UTF-16LE/);
    assert.equal(code, 1);
  });
});
