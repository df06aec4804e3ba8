// `mtrl metrics` against hostile MLflow stand-ins (issue 25): each must end within 60 s with exit 2 and a sentence, at a peak
// of at most 600 MB, without --deadline. The baseline is the same command against a well-behaved stand-in in the same run.
import { execFileSync, spawn } from 'node:child_process';
import path from 'node:path';
import { TABLE_KEYS } from '../src/cli/metrics';
import { startStandIn, type Hostility } from '../test/unit/hostile/standIn';

const root = path.resolve(__dirname, '..');
const GIB = 2 ** 30;

interface Ran {
  code: number;
  seconds: number;
  peakMb: number;
  sentence: string;
}

/** Runs the built CLI against a stand-in: exit code, wall time, peak resident memory and the last stderr line but the peak's. */
async function metricsAgainst(h: Hostility, extra: string[] = []): Promise<Ran> {
  const server = await startStandIn({ ...h, lifetimeMs: 120_000 });
  const start = performance.now();
  try {
    const child = spawn(
      process.execPath,
      ['--require', path.join(root, 'bench/lib/maxRss.cjs'), 'dist/cli.js', 'metrics', 'hostile', '--endpoint', server.url, ...extra],
      { cwd: root, stdio: ['ignore', 'ignore', 'pipe'] },
    );
    let err = '';
    child.stderr.on('data', (chunk) => (err += chunk));
    const code = await new Promise<number>((resolve) => child.on('close', (c) => resolve(c ?? -1)));
    const lines = err.trim().split('\n');
    const peak = Number(/maxRSS (\d+)/.exec(err)?.[1] ?? 0);
    return {
      code,
      seconds: (performance.now() - start) / 1000,
      peakMb: peak / 1024,
      sentence: lines.filter((l) => l && !l.startsWith('maxRSS')).pop() ?? '',
    };
  } finally {
    await server.close();
  }
}

async function main(): Promise<void> {
  execFileSync(process.execPath, ['scripts/build.mjs'], { cwd: root, stdio: 'ignore' });
  const healthy = await metricsAgainst({
    keys: TABLE_KEYS,
    history: { kind: 'points', points: [{ value: 0.5, step: 1, timestamp: 1 }] },
  });
  console.log(
    `baseline, a well-behaved MLflow: exit ${healthy.code}, ${healthy.seconds.toFixed(1)} s, peak ${healthy.peakMb.toFixed(0)} MB`,
  );
  const cases: [string, Hostility, string[]][] = [
    ['a page token that never changes', { keys: TABLE_KEYS, history: { kind: 'repeat-token' } }, []],
    ['endless empty pages', { keys: TABLE_KEYS, history: { kind: 'empty-endless' } }, []],
    ['endless full pages (25,000 points each)', { keys: TABLE_KEYS, history: { kind: 'full-endless', perPage: 25_000 } }, []],
    ['a 2 GB gzip bomb', { keys: TABLE_KEYS, history: { kind: 'bomb', inflatedBytes: 2 * GIB } }, []],
    [
      '100 keys, each a 2 GB gzip bomb (16 at once), --json',
      { keys: Array.from({ length: 100 }, (_, i) => `k${i}`), history: { kind: 'bomb', inflatedBytes: 2 * GIB } },
      ['--json'],
    ],
  ];
  let over = false;
  for (const [what, h, extra] of cases) {
    const r = await metricsAgainst(h, extra);
    const ok = r.code === 2 && r.seconds <= 60 && r.peakMb <= 600 && r.sentence.startsWith('mtrl metrics: ');
    over ||= !ok;
    console.log(
      `${what}: exit ${r.code}, ${r.seconds.toFixed(1)} s, peak ${r.peakMb.toFixed(0)} MB (${(r.peakMb / healthy.peakMb).toFixed(1)}× the baseline; target exit 2, ≤ 60 s, ≤ 600 MB) ${ok ? 'ok' : 'OVER'}`,
    );
    console.log(`  ${r.sentence.slice(0, 200)}`);
  }
  if (over) process.exitCode = 1;
}

void main();
