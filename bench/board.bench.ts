// The replay board on a million rollouts of saved transcripts (`mtrl rollouts --transcripts` output, one a line): the read
// the panel does (bench/lib/boardRead.ts: the same reader, pipeline and board data, no VS Code) against the plainest read
// of the same file (bench/lib/bareLines.cjs: each line JSON.parse'd and kept), in the same run. Figures: time to the
// first rows the board can draw, the whole read, peak memory. Target: first rows ≤ 1 s, peak ≤ 1 GB.
// N = 1,000,000 lines; MTRL_BENCH_ROLLOUTS=100000 for a quick run, MTRL_BENCH_ROUNDS for more rounds.
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { measure, type Ran } from './lib/measure';
import { writeTranscripts } from './lib/savedTranscripts';

const root = path.resolve(__dirname, '..');
const COUNT = Number(process.env.MTRL_BENCH_ROLLOUTS ?? 1_000_000);
const ROUNDS = Number(process.env.MTRL_BENCH_ROUNDS ?? 2);
interface BoardRead {
  first?: { ms: number; rollouts: number; groups: number };
  totalMs: number;
  openMs: number;
  rollouts: number;
  steps: number;
}

const best = (runs: Ran[], key: 'wallMs' | 'cpuMs' | 'peakMb') => Math.min(...runs.map((r) => r[key]));

async function main(): Promise<void> {
  const dir = mkdtempSync(path.join(tmpdir(), 'mtrl-board-'));
  try {
    const file = path.join(dir, 'rollouts.jsonl');
    const bytes = writeTranscripts(file, COUNT);
    const bare: Ran[] = [];
    const board: Ran[] = [];
    const reads: BoardRead[] = [];
    // Interleaved, the fastest of each kept: on a shared machine the slower runs measure the neighbours.
    for (let round = 0; round < ROUNDS; round++) {
      bare.push(await measure(root, [path.join(root, 'bench/lib/bareLines.cjs'), file]));
      const ran = await measure(root, ['--import', 'tsx', path.join(root, 'bench/lib/boardRead.ts'), file]);
      board.push(ran);
      reads.push(JSON.parse(ran.out) as BoardRead);
    }
    if (reads[0].rollouts !== COUNT) throw new Error(`the board read ${reads[0].rollouts} of ${COUNT} rollouts`);
    const firstMs = Math.min(...reads.map((r) => r.first?.ms ?? Infinity));
    const readMs = Math.min(...reads.map((r) => r.totalMs));
    const peak = best(board, 'peakMb');
    console.log(
      `the replay board on ${COUNT.toLocaleString('en')} saved transcripts (${(bytes / 1e6).toFixed(0)} MB, ${reads[0].steps} steps), fastest of ${ROUNDS} interleaved runs:`,
    );
    console.log(
      `  first rows the board can draw   ${firstMs.toFixed(0).padStart(7)} ms (${reads[0].first?.rollouts} rollouts, ${reads[0].first?.groups} groups; target ≤ 1000) ${firstMs <= 1000 ? 'ok' : 'OVER'}`,
    );
    console.log(`  whole read (board)              ${(readMs / 1000).toFixed(1).padStart(7)} s`);
    console.log(
      `  opening the last rollout        ${Math.min(...reads.map((r) => r.openMs))
        .toFixed(0)
        .padStart(7)} ms (its turns read back from the file)`,
    );
    const row = (what: string, key: 'wallMs' | 'cpuMs' | 'peakMb', unit: string, scale: number) => {
      const b = best(bare, key);
      const c = best(board, key);
      console.log(
        `  ${what.padEnd(12)} bare read ${(b / scale).toFixed(1).padStart(7)} ${unit}   board ${(c / scale).toFixed(1).padStart(7)} ${unit}   ratio ${(c / b).toFixed(2)}`,
      );
    };
    row('CPU time', 'cpuMs', 's', 1000);
    row('wall time', 'wallMs', 's', 1000);
    row('peak memory', 'peakMb', 'MB', 1);
    console.log(`  peak memory of the board's read ${peak.toFixed(0)} MB (target ≤ 1024) ${peak <= 1024 ? 'ok' : 'OVER'}`);
    console.log(`  each run: ${board.map((r, i) => `${r.peakMb.toFixed(0)} MB, ${(reads[i].totalMs / 1000).toFixed(1)} s`).join('; ')}`);
    if (firstMs > 1000 || peak > 1024) process.exitCode = 1;
  } finally {
    rmSync(dir, { recursive: true, force: true });
  }
}

void main();
