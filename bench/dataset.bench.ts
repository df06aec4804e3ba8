// Dataset validation speed against a bare parse loop over the same file, and memory while streaming a large file.
// Run: npm run bench (or: node --import tsx bench/dataset.bench.ts [--big-mb N]; Parquet against pyarrow alone: --parquet-pyarrow [ROWS])
import { execFileSync, spawnSync } from 'node:child_process';
import { createReadStream, createWriteStream, mkdtempSync, rmSync, statSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { parquetFile, validateDataset, validateParquet } from '../src/core/dataset';
import { validateSource } from '../src/services/datasets/sources';

const ROWS = 300_000;
const ROUNDS = 5;

/** Answers repeat every this many rows in the findings case: Wordle has about 2,300 answers. */
const WORDLE_ANSWERS = 2_300;

function row(i: number, seed: number, answers = Infinity): string {
  let word = '';
  let x = ((i % answers) * 2654435761 + seed) >>> 0;
  for (let k = 0; k < 5; k++) {
    word += String.fromCharCode(97 + (x % 26));
    x = Math.floor(x / 26) + ((x * 7) >>> 0);
  }
  const task = { prompt: 'Guess the 5-letter word', answer: word, id: `wordle_train_${String(i).padStart(6, '0')}` };
  return JSON.stringify({ prompt: JSON.stringify(task) })
    .replace(/":"/g, '": "')
    .replace(/","/g, '", "');
}

/** A support task: its own question, a long answer no other row has, an id in order (most users' rows look like this). */
function supportRow(i: number): string {
  const account = String((i * 7919) % 100_000).padStart(5, '0');
  const task = {
    prompt: `Customer ${i} asks how to reset the password of account A-${account}.`,
    answer: `Send the reset link for account A-${account} and confirm by mail (case ${i}).`,
    id: `ticket-${String(i).padStart(6, '0')}`,
  };
  return JSON.stringify({ prompt: JSON.stringify(task) });
}

/** JSON Lines, a pretty-printed JSON array (one element per line) for .json, a prompt column for .csv, or Parquet in row groups of 100,000 for .parquet. */
async function writeRows(file: string, rows: number, answers = Infinity): Promise<void> {
  if (file.endsWith('.parquet')) {
    const { parquetWriteFile } = await import('hyparquet-writer');
    const prompts = Array.from({ length: rows }, (_, i) => JSON.parse(row(i, 12345)).prompt as string);
    parquetWriteFile({ filename: file, columnData: [{ name: 'prompt', data: prompts, type: 'STRING' }], rowGroupSize: 100_000 });
    return;
  }
  const array = file.endsWith('.json');
  const csv = file.endsWith('.csv');
  const out = createWriteStream(file);
  if (array) out.write('[\n');
  if (csv) out.write('prompt\n');
  const batch: string[] = [];
  for (let i = 0; i < rows; i++) {
    batch.push(row(i, 12345, answers));
    if (batch.length === 10_000 || i === rows - 1) {
      const lines = csv ? batch.map((line) => `"${(JSON.parse(line) as { prompt: string }).prompt.replace(/"/g, '""')}"`) : batch;
      const text = array ? '  ' + lines.join(',\n  ') + (i === rows - 1 ? '\n]\n' : ',\n') : lines.join('\n') + '\n';
      if (!out.write(text)) await new Promise<void>((r) => out.once('drain', () => r()));
      batch.length = 0;
    }
  }
  await new Promise((r) => out.end(r));
}

/** The baseline: the same stream and line split, and only JSON.parse of each line and of its inner prompt. */
async function bareLoop(file: string): Promise<number> {
  const decoder = new TextDecoder();
  let rest = '';
  let rows = 0;
  for await (const chunk of createReadStream(file, { highWaterMark: 1024 * 1024 })) {
    const text = rest + decoder.decode(chunk as Buffer, { stream: true });
    let start = 0;
    for (let nl = text.indexOf('\n'); nl !== -1; nl = text.indexOf('\n', start)) {
      const line = text.slice(start, nl);
      start = nl + 1;
      JSON.parse(JSON.parse(line).prompt);
      rows++;
    }
    rest = text.slice(start);
  }
  return rows;
}

async function full(file: string): Promise<number> {
  if (file.endsWith('.parquet')) {
    const bytes = await parquetFile(file);
    const report = await validateParquet(bytes, { format: 'parquet', role: 'training', trackKeys: false });
    await bytes.close();
    if (report.findings.some((f) => f.severity === 'error')) throw new Error(`${file}: unexpected errors: ${report.findings[0].message}`);
    return report.rows;
  }
  // The CLI's own path: the dataset service opens the file, as `mtrl validate` does.
  const report = await validateSource(file, { role: 'training', trackKeys: false });
  if (report.findings.some((f) => f.severity === 'error')) throw new Error(`${file}: unexpected errors: ${report.findings[0].message}`);
  return report.rows;
}

/** A target's verdict as the other benches print it; a missed one fails the bench's exit code. */
function verdict(met: boolean): string {
  if (!met) process.exitCode = 1;
  return met ? 'ok' : 'OVER';
}

/** Wall time and CPU time (user + system): on a busy machine CPU time is the steadier figure. */
async function time(fn: () => Promise<number>): Promise<{ ms: number; cpu: number; rows: number }> {
  const start = performance.now();
  const cpu = process.cpuUsage();
  const rows = await fn();
  const used = process.cpuUsage(cpu);
  return { ms: performance.now() - start, cpu: (used.user + used.system) / 1000, rows };
}

/** The bench's Wordle-shaped rows carry the issue's target; support-shaped rows are measured beside them. */
async function speed(shape: 'wordle' | 'support' = 'wordle'): Promise<void> {
  const dir = mkdtempSync(path.join(tmpdir(), 'mtrl-bench-'));
  try {
    const file = path.join(dir, 'training-data.jsonl');
    if (shape === 'wordle') await writeRows(file, ROWS);
    else writeFileSync(file, Array.from({ length: ROWS }, (_, i) => supportRow(i)).join('\n') + '\n');
    const mb = statSync(file).size / 1024 / 1024;
    let bare = Infinity;
    let validated = Infinity;
    let bareCpu = Infinity;
    let validatedCpu = Infinity;
    for (let round = 0; round < ROUNDS; round++) {
      const b = await time(() => bareLoop(file));
      const v = await time(() => full(file));
      if (b.rows !== ROWS || v.rows !== ROWS) throw new Error(`row count mismatch: ${b.rows} / ${v.rows}`);
      bare = Math.min(bare, b.ms);
      validated = Math.min(validated, v.ms);
      bareCpu = Math.min(bareCpu, b.cpu);
      validatedCpu = Math.min(validatedCpu, v.cpu);
    }
    const what = shape === 'wordle' ? 'Wordle-shaped' : 'support-shaped: a question, a long answer and an id of its own each';
    console.log(`file: ${ROWS.toLocaleString('en')} rows, ${mb.toFixed(1)} MB, ${what} (best of ${ROUNDS})`);
    console.log(
      `bare parse loop:  ${bare.toFixed(0)} ms  ${Math.round(ROWS / (bare / 1000)).toLocaleString('en')} rows/s  ${(mb / (bare / 1000)).toFixed(1)} MB/s`,
    );
    console.log(
      `full validation:  ${validated.toFixed(0)} ms  ${Math.round(ROWS / (validated / 1000)).toLocaleString('en')} rows/s  ${(mb / (validated / 1000)).toFixed(1)} MB/s`,
    );
    const cpuRatio = validatedCpu / bareCpu;
    const target = shape === 'wordle' ? `(target ≤ 1.0 CPU) ${verdict(cpuRatio <= 1)}` : '(no target: measured beside)';
    console.log(
      `ratio full / bare: ${(validated / bare).toFixed(2)} wall, ${cpuRatio.toFixed(2)} CPU (${validatedCpu.toFixed(0)} / ${bareCpu.toFixed(0)} ms) ${target}`,
    );
  } finally {
    rmSync(dir, { recursive: true, force: true });
  }
}

/** Peak RSS of a fresh process validating a file of `rows` rows, so one run's heap does not hide another's. */
function peakRss(rows: number, format: 'jsonl' | 'json' | 'csv' | 'parquet'): void {
  const dir = mkdtempSync(path.join(tmpdir(), 'mtrl-bench-'));
  try {
    const file = path.join(dir, `training-data.${format}`);
    execFileSync(process.execPath, ['--import', 'tsx', __filename, '--write', file, String(rows)], { stdio: 'inherit' });
    const out = execFileSync(process.execPath, ['--import', 'tsx', __filename, '--measure', file]).toString().trim();
    const mb = statSync(file).size / 1024 / 1024;
    console.log(
      `streaming ${mb.toFixed(0)} MB of ${{ json: 'a JSON array', jsonl: 'JSON Lines', csv: 'CSV', parquet: `Parquet (${rows.toLocaleString('en')} rows)` }[format]}: peak RSS ${out} MB (ratio to file size ${(Number(out) / mb).toFixed(2)})`,
    );
  } finally {
    rmSync(dir, { recursive: true, force: true });
  }
}

/** A CSV whose first row opens a quote that never closes: the row cap ends the read, so peak memory stays flat as the file grows. */
function openQuote(mb: number): void {
  const dir = mkdtempSync(path.join(tmpdir(), 'mtrl-bench-'));
  try {
    const file = path.join(dir, 'training-data.csv');
    execFileSync(process.execPath, ['--import', 'tsx', __filename, '--write-open-quote', file, String(mb)], { stdio: 'inherit' });
    const out = execFileSync(process.execPath, ['--import', 'tsx', __filename, '--measure-open-quote', file]).toString().trim();
    console.log(`a ${mb} MB CSV with a quote left open on row 1: peak RSS ${out} MB (ratio to file size ${(Number(out) / mb).toFixed(2)})`);
  } finally {
    rmSync(dir, { recursive: true, force: true });
  }
}

async function writeOpenQuote(file: string, mb: number): Promise<void> {
  const out = createWriteStream(file);
  const block = 'some prompt text without a closing quote\n'.repeat(25_000);
  out.write('prompt\n"');
  for (let written = 0; written < mb * 1024 * 1024; written += block.length)
    if (!out.write(block)) await new Promise<void>((r) => out.once('drain', () => r()));
  await new Promise((r) => out.end(r));
}

async function measureOpenQuote(file: string): Promise<string> {
  const report = await validateDataset(createReadStream(file, { highWaterMark: 1024 * 1024 }), { format: 'csv', trackKeys: false });
  if (report.findings[0]?.code !== 'csv-syntax')
    throw new Error(`${file}: expected the row cap's finding, got ${report.findings[0]?.message}`);
  return (process.resourceUsage().maxRSS / 1024).toFixed(0);
}

/** One run in this (fresh) process: milliseconds, peak RSS in MB, and for the CLI the bytes of its --json output. */
async function measureFindings(which: 'bare' | 'cli', file: string): Promise<string> {
  // The CLI's code is loaded before the clock starts: loading is not validating. The command's own modules load on
  // first use (commands.ts), ~75 ms through tsx: loaded here too, the way `main` will ask for them.
  const { main } = await import('../src/cli.js');
  const { commands } = await import('../src/cli/commands.js');
  if (which === 'cli') commands.find((c) => c.name === 'validate')!.load();
  const start = performance.now();
  let bytes = 0;
  if (which === 'bare') await bareLoop(file);
  else {
    await main(['validate', file, '--json'], {
      out: (t: string) => (bytes += Buffer.byteLength(t)),
      err: () => undefined,
      stdin: () => [],
    });
  }
  return JSON.stringify({ ms: performance.now() - start, mb: process.resourceUsage().maxRSS / 1024, bytes });
}

/** 300,000 rows whose answers repeat: the findings are summarized past 100 per code, so time, memory and output stay near a bare parse loop's. */
function repeatedAnswers(): void {
  const dir = mkdtempSync(path.join(tmpdir(), 'mtrl-bench-'));
  try {
    const file = path.join(dir, 'training-data.jsonl');
    execFileSync(process.execPath, ['--import', 'tsx', __filename, '--write-repeated', file, String(ROWS)], { stdio: 'inherit' });
    const run = (which: string) =>
      JSON.parse(execFileSync(process.execPath, ['--import', 'tsx', __filename, '--measure-findings', which, file]).toString()) as {
        ms: number;
        mb: number;
        bytes: number;
      };
    const best = (which: string) => {
      const runs = Array.from({ length: 3 }, () => run(which));
      return { ms: Math.min(...runs.map((r) => r.ms)), mb: Math.min(...runs.map((r) => r.mb)), bytes: runs[0].bytes };
    };
    const bare = best('bare');
    const cli = best('cli');
    console.log(
      `repeated answers (${ROWS.toLocaleString('en')} rows, ${WORDLE_ANSWERS.toLocaleString('en')} answers), best of 3 fresh processes:`,
    );
    console.log(`  bare parse loop        ${bare.ms.toFixed(0)} ms  peak RSS ${bare.mb.toFixed(0)} MB`);
    console.log(
      `  mtrl validate --json   ${cli.ms.toFixed(0)} ms  peak RSS ${cli.mb.toFixed(0)} MB  output ${(cli.bytes / 1024).toFixed(0)} KB (target ≤ 1,024 KB) ${verdict(cli.bytes <= 1024 * 1024)}`,
    );
    const time = cli.ms / bare.ms;
    const peak = cli.mb / bare.mb;
    console.log(
      `  ratio to bare: time ${time.toFixed(2)}, peak RSS ${peak.toFixed(2)} (targets ≤ 1.5) ${verdict(time <= 1.5 && peak <= 1.5)}`,
    );
  } finally {
    rmSync(dir, { recursive: true, force: true });
  }
}

/** One run under /usr/bin/time: wall s, CPU s, peak MB; undefined with the reason printed when the command exits 3. */
function timed(argv: string[]): { wall: number; cpu: number; mb: number } | undefined {
  const r = spawnSync('/usr/bin/time', ['-f', '%e %U %S %M', ...argv], { encoding: 'utf8' });
  if (r.status === 3) return void console.log(`  skipped: ${r.stderr.trim().split('\n')[0]}`);
  const m = /([\d.]+) ([\d.]+) ([\d.]+) (\d+)\s*$/.exec(r.stderr);
  if (r.status !== 0 || !m) throw new Error(`${argv.join(' ')} exited ${r.status}: ${r.stderr.slice(-400)}`);
  return { wall: Number(m[1]), cpu: Number(m[2]) + Number(m[3]), mb: Number(m[4]) / 1024 };
}

/** `mtrl validate` (the built CLI) on a Parquet file of `rows` prompts against pyarrow + json.loads, interleaved, medians of 3. */
async function parquetAgainstPyarrow(rows: number): Promise<void> {
  const root = path.resolve(__dirname, '..');
  execFileSync(process.execPath, ['scripts/build.mjs'], { cwd: root, stdio: 'ignore' });
  const dir = mkdtempSync(path.join(tmpdir(), 'mtrl-bench-'));
  try {
    const file = path.join(dir, 'training-data.parquet');
    execFileSync(process.execPath, ['--import', 'tsx', __filename, '--write', file, String(rows)], { stdio: 'inherit' });
    const runs: { py: NonNullable<ReturnType<typeof timed>>[]; cli: NonNullable<ReturnType<typeof timed>>[] } = { py: [], cli: [] };
    for (let round = 0; round < 3; round++) {
      const py = timed(['python3', path.join(root, 'bench/lib/pyarrowPrompts.py'), file]);
      if (!py) return;
      runs.py.push(py);
      runs.cli.push(timed([process.execPath, path.join(root, 'dist/cli.js'), 'validate', file, '--json'])!);
    }
    const median = (xs: number[]) => xs.sort((a, b) => a - b)[1];
    console.log(`Parquet, ${rows.toLocaleString('en')} rows in row groups of 100,000, medians of 3 interleaved runs:`);
    // The issue's targets: wall time at most pyarrow's, peak memory below it; CPU is shown beside.
    const targets = { wall: (r: number) => r <= 1, cpu: undefined, mb: (r: number) => r < 1 };
    for (const key of ['wall', 'cpu', 'mb'] as const) {
      const py = median(runs.py.map((r) => r[key]));
      const cli = median(runs.cli.map((r) => r[key]));
      const met = targets[key];
      console.log(
        `  ${key.padEnd(4)} pyarrow + json.loads ${py.toFixed(1)}  mtrl validate ${cli.toFixed(1)}  ratio ${(cli / py).toFixed(2)}${met ? ` (target ${key === 'wall' ? '≤ 1.0' : '< 1.0'}) ${verdict(met(cli / py))}` : ''}`,
      );
    }
  } finally {
    rmSync(dir, { recursive: true, force: true });
  }
}

const [mode, file, rows] = process.argv.slice(2);
if (mode === '--write') {
  void writeRows(file, Number(rows));
} else if (mode === '--write-repeated') {
  void writeRows(file, Number(rows), WORDLE_ANSWERS);
} else if (mode === '--measure-findings') {
  void measureFindings(file as 'bare' | 'cli', rows).then((line) => console.log(line));
} else if (mode === '--write-open-quote') {
  void writeOpenQuote(file, Number(rows));
} else if (mode === '--measure-open-quote') {
  void measureOpenQuote(file).then((mb) => console.log(mb));
} else if (mode === '--parquet-pyarrow') {
  void parquetAgainstPyarrow(Number(file ?? 2_000_000));
} else if (mode === '--speed') {
  void speed().then(() => speed('support'));
} else if (mode === '--measure') {
  void full(file).then(() => console.log((process.resourceUsage().maxRSS / 1024).toFixed(0)));
} else {
  void (async () => {
    await speed();
    await speed('support');
    repeatedAnswers();
    for (const n of [300_000, 3_000_000]) peakRss(n, 'jsonl');
    for (const n of [300_000, 3_000_000]) peakRss(n, 'json');
    for (const n of [300_000, 3_000_000]) peakRss(n, 'parquet');
    for (const n of [300_000, 3_000_000]) peakRss(n, 'csv');
    for (const mb of [256, 1024]) openQuote(mb);
    await parquetAgainstPyarrow(2_000_000);
  })();
}
