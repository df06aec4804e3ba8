// `mtrl scan FILE --json` against `mtrl rollouts FILE --json` (the built CLI) on the same 100,000 saved transcripts and
// on the same rollout records log, in the same run: wall time and peak memory. Target: the scan ≤ 2× the rollouts
// summary's wall time. MTRL_BENCH_TRANSCRIPTS=10000 for a quick run.
import { execFileSync } from 'node:child_process';
import { closeSync, mkdtempSync, openSync, readFileSync, rmSync, writeSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { measure, type Ran } from './lib/measure';
import { writeTranscripts } from './lib/savedTranscripts';

const root = path.resolve(__dirname, '..');
const COUNT = Number(process.env.MTRL_BENCH_TRANSCRIPTS ?? 100_000);
const ROUNDS = Number(process.env.MTRL_BENCH_ROUNDS ?? 2);

/** The same rollouts as the agent's rollout records (one log line each), read through the rollout pipeline. */
function writeRecords(saved: string, file: string): number {
  const fd = openSync(file, 'w');
  let bytes = 0;
  for (const line of readFileSync(saved, 'utf8').split('\n')) {
    if (!line) continue;
    const t = JSON.parse(line);
    const turns = t.turns.map((turn: { thinking: string; toolCalls: object[] }) => ({
      thinking: turn.thinking,
      tool_calls: turn.toolCalls,
    }));
    bytes += writeSync(
      fd,
      `${JSON.stringify({ mtrl_rollout: 1, trajectory_id: t.id, prompt: t.task.prompt, step: t.step, reward: t.reward, turns })}\n`,
    );
  }
  closeSync(fd);
  return bytes;
}

async function compare(label: string, file: string): Promise<boolean> {
  const rollouts: Ran[] = [];
  const scan: Ran[] = [];
  for (let round = 0; round < ROUNDS; round++) {
    rollouts.push(await measure(root, ['dist/cli.js', 'rollouts', file, '--json']));
    scan.push(await measure(root, ['dist/cli.js', 'scan', file, '--json'], [0, 1]));
  }
  const min = (runs: Ran[], key: 'wallMs' | 'peakMb') => Math.min(...runs.map((r) => r[key]));
  const ratio = min(scan, 'wallMs') / min(rollouts, 'wallMs');
  const found = JSON.parse(scan[0].out) as { scanned: number; findings: { kind: string; rollouts: number }[] };
  console.log(
    `  ${label}: ${found.scanned.toLocaleString('en')} scanned, ${found.findings.map((f) => `${f.kind} ${f.rollouts}`).join(', ') || 'nothing found'}`,
  );
  console.log(
    `    wall time  rollouts ${(min(rollouts, 'wallMs') / 1000).toFixed(1).padStart(5)} s   scan ${(min(scan, 'wallMs') / 1000).toFixed(1).padStart(5)} s   ratio ${ratio.toFixed(2)} (target ≤ 2) ${ratio <= 2 ? 'ok' : 'OVER'}`,
  );
  console.log(
    `    peak       rollouts ${min(rollouts, 'peakMb').toFixed(0).padStart(5)} MB  scan ${min(scan, 'peakMb').toFixed(0).padStart(5)} MB`,
  );
  return ratio <= 2 && found.scanned === COUNT;
}

async function main(): Promise<void> {
  execFileSync(process.execPath, ['scripts/build.mjs'], { cwd: root, stdio: 'ignore' });
  const dir = mkdtempSync(path.join(tmpdir(), 'mtrl-scan-'));
  try {
    const saved = path.join(dir, 'rollouts.jsonl');
    const savedBytes = writeTranscripts(saved, COUNT);
    const log = path.join(dir, 'run.log');
    const logBytes = writeRecords(saved, log);
    console.log(`mtrl scan vs mtrl rollouts on ${COUNT.toLocaleString('en')} rollouts, fastest of ${ROUNDS}:`);
    const ok = [
      await compare(`saved transcripts (${(savedBytes / 1e6).toFixed(0)} MB)`, saved),
      await compare(`rollout records log (${(logBytes / 1e6).toFixed(0)} MB)`, log),
    ];
    if (ok.includes(false)) process.exitCode = 1;
  } finally {
    rmSync(dir, { recursive: true, force: true });
  }
}

void main();
