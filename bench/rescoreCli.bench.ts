// `mtrl reward support.mtrl-reward.json --rescore FILE --json` (the built CLI; a class-form reward) on N saved transcripts,
// against the plainest Python that does the same (bench/lib/bareRescore.py: each line json.loads'd, the class played
// through its tool calls), in the same run: wall time, and peak memory of the CLI and of its Python processes.
// Target: ≤ 60 s, memory bounded (not growing with N). N = 100,000; MTRL_BENCH_TRANSCRIPTS=10000 for a quick run.
import { execFileSync } from 'node:child_process';
import { copyFileSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { measure, type Ran } from './lib/measure';
import { writeTranscripts } from './lib/savedTranscripts';

const root = path.resolve(__dirname, '..');
const COUNT = Number(process.env.MTRL_BENCH_TRANSCRIPTS ?? 100_000);
const ROUNDS = Number(process.env.MTRL_BENCH_ROUNDS ?? 1);
const scenarios = path.join(root, 'test/fixtures/workspace/reward-scenarios');

type PythonRan = Ran & { pythonMb: number; pythons: number };

/** Runs `args` with Python peaks appended to a fresh file; returns the run and the largest Python peak (MB). */
async function withPythonPeak(dir: string, args: string[]): Promise<PythonRan> {
  const peaks = path.join(dir, 'python-peaks');
  writeFileSync(peaks, '');
  process.env.MTRL_BENCH_PYTHON_PEAK = peaks;
  const ran = await measure(root, args);
  const kb = readFileSync(peaks, 'utf8').split('\n').filter(Boolean).map(Number);
  return { ...ran, pythonMb: Math.max(...kb) / 1024, pythons: kb.length };
}

async function main(): Promise<void> {
  execFileSync(process.execPath, ['scripts/build.mjs'], { cwd: root, stdio: 'ignore' });
  const dir = mkdtempSync(path.join(tmpdir(), 'mtrl-rescore-'));
  try {
    for (const f of ['support.mtrl-reward.json', 'support_env.py']) copyFileSync(path.join(scenarios, f), path.join(dir, f));
    const file = path.join(dir, 'rollouts.jsonl');
    const bytes = writeTranscripts(file, COUNT);
    const python = path.join(root, 'bench/lib/pythonPeak.sh');
    const bareScript = path.join(root, 'bench/lib/bareRescore.py');
    // The bare run goes through the same wrapper, started by a Node script so both are measured alike.
    const bareArgs = [
      '-e',
      `require('node:child_process').execFileSync(${JSON.stringify(python)}, ${JSON.stringify([bareScript, path.join(dir, 'support_env.py'), file])}, { stdio: 'inherit' })`,
    ];
    const cliArgs = [
      'dist/cli.js',
      'reward',
      path.join(dir, 'support.mtrl-reward.json'),
      '--rescore',
      file,
      '--python',
      python,
      '--timeout',
      '600',
      '--json',
    ];
    const bare: PythonRan[] = [];
    const cli: PythonRan[] = [];
    for (let round = 0; round < ROUNDS; round++) {
      bare.push(await withPythonPeak(dir, bareArgs));
      cli.push(await withPythonPeak(dir, cliArgs));
    }
    const report = JSON.parse(cli[0].out) as { compared: number; unreplayable: unknown[] };
    const scored = report.compared + report.unreplayable.length;
    console.log(
      `mtrl reward --rescore on ${COUNT.toLocaleString('en')} saved transcripts (${(bytes / 1e6).toFixed(0)} MB; ${report.compared.toLocaleString('en')} compared, ${report.unreplayable.length.toLocaleString('en')} could not be re-scored), fastest of ${ROUNDS}:`,
    );
    const min = (runs: PythonRan[], key: 'wallMs' | 'cpuMs' | 'peakMb' | 'pythonMb') => Math.min(...runs.map((r) => r[key]));
    const wall = min(cli, 'wallMs');
    console.log(
      `  wall time     bare ${(min(bare, 'wallMs') / 1000).toFixed(1).padStart(6)} s    mtrl ${(wall / 1000).toFixed(1).padStart(6)} s   ratio ${(wall / min(bare, 'wallMs')).toFixed(2)} (target ≤ 60 s) ${wall <= 60_000 ? 'ok' : 'OVER'}`,
    );
    console.log(
      `  CLI peak      bare (node) ${min(bare, 'peakMb').toFixed(0).padStart(5)} MB   mtrl ${min(cli, 'peakMb').toFixed(0).padStart(5)} MB`,
    );
    console.log(
      `  Python peak   bare ${min(bare, 'pythonMb').toFixed(0).padStart(6)} MB   mtrl ${min(cli, 'pythonMb').toFixed(0).padStart(6)} MB (largest of ${cli[0].pythons} Python processes)`,
    );
    if (scored !== COUNT) throw new Error(`re-scored ${scored} of ${COUNT}`);
    if (wall > 60_000) process.exitCode = 1;
  } finally {
    rmSync(dir, { recursive: true, force: true });
  }
}

void main();
