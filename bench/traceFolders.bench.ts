// What a user waits for on a run's synced trace artifacts: `mtrl rollouts DIR --json` (the built CLI) on N real-shaped
// `traces.json` folders, against a bare read + JSON.parse of the same files (bench/lib/bareRead.cjs), in the same run:
// CPU time, wall time and peak memory as ratios. Target: CPU ≤ 1.5×, wall ≤ 1.5×, peak ≤ 2×.
// N = 100,000 (a 100-step run at batch 128 × G 8 plays 102,400 rollouts); MTRL_BENCH_TRACES=10000 for a quick run.
import { execFileSync } from 'node:child_process';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { measure, type Ran } from './lib/measure';
import { writeFolders, type FolderLayout } from './lib/traceFolders';

const root = path.resolve(__dirname, '..');
const COUNT = Number(process.env.MTRL_BENCH_TRACES ?? 100_000);
// Four: on a shared machine the fastest of two was often a slow minute's (docs/scale.md).
const ROUNDS = Number(process.env.MTRL_BENCH_ROUNDS ?? 4);
const LAYOUT = (process.env.MTRL_BENCH_LAYOUT ?? 'id') as FolderLayout;
// 244 MB measured; 793 MB when it held every rollout whole: a return to that fails.
const SIGNAL_PEAK_MB = 400;
const best = (runs: Ran[], key: 'wallMs' | 'cpuMs' | 'peakMb') => Math.min(...runs.map((r) => r[key]));

async function main(): Promise<void> {
  execFileSync(process.execPath, ['scripts/build.mjs'], { cwd: root, stdio: 'ignore' });
  const dir = mkdtempSync(path.join(tmpdir(), 'mtrl-trace-folders-'));
  try {
    const bytes = writeFolders(dir, COUNT, LAYOUT);
    const bare: Ran[] = [];
    const cli: Ran[] = [];
    // Interleaved, the fastest of each kept: on a shared machine the slower runs measure the neighbours.
    for (let round = 0; round < ROUNDS; round++) {
      bare.push(await measure(root, [path.join(root, 'bench/lib/bareRead.cjs'), dir, LAYOUT]));
      cli.push(await measure(root, ['dist/cli.js', 'rollouts', dir, '--json']));
    }
    const read = JSON.parse(cli[0].out) as { rollouts: number; groups: number };
    if (read.rollouts !== COUNT) throw new Error(`mtrl rollouts read ${read.rollouts} of ${COUNT} rollouts`);
    console.log(
      `mtrl rollouts DIR --json on ${COUNT.toLocaleString('en')} trace folders (${(bytes / 1e6).toFixed(0)} MB, ${read.groups.toLocaleString('en')} GRPO groups), fastest of ${ROUNDS} interleaved runs:`,
    );
    const row = (what: string, key: 'wallMs' | 'cpuMs' | 'peakMb', unit: string, scale: number, target: number) => {
      const b = best(bare, key);
      const c = best(cli, key);
      const ratio = c / b;
      console.log(
        `  ${what.padEnd(12)} bare read ${(b / scale).toFixed(1).padStart(7)} ${unit}   mtrl ${(c / scale).toFixed(1).padStart(7)} ${unit}   ratio ${ratio.toFixed(2)} (target ≤ ${target}) ${ratio <= target ? 'ok' : 'OVER'}`,
      );
      return ratio <= target;
    };
    const ok = [
      row('CPU time', 'cpuMs', 's', 1000, 1.5),
      row('wall time', 'wallMs', 's', 1000, 1.5),
      row('peak memory', 'peakMb', 'MB', 1, 2),
    ];
    // The signal check keeps what its report reads (summaryKeeper): bounded, as the summary is.
    const signal = await measure(root, ['dist/cli.js', 'signal', dir, '--json']);
    const bounded = signal.peakMb <= SIGNAL_PEAK_MB;
    console.log(
      `  mtrl signal DIR --json: wall ${(signal.wallMs / 1000).toFixed(1)} s, CPU ${(signal.cpuMs / 1000).toFixed(1)} s, peak ${signal.peakMb.toFixed(0)} MB (target ≤ ${SIGNAL_PEAK_MB} MB) ${bounded ? 'ok' : 'OVER'}`,
    );
    ok.push(bounded);
    if (ok.includes(false)) process.exitCode = 1;
  } finally {
    rmSync(dir, { recursive: true, force: true });
  }
}

void main();
