import { execFileSync } from 'node:child_process';
import { mkdtempSync } from 'node:fs';
import { cpus, loadavg } from 'node:os';
import path from 'node:path';
import { startPolicyStandIn, type PolicyMode } from '../../test/unit/hostile/policyStandIn';
import { refused, running } from '../../test/unit/processes';
import { watch, type Watched } from './processTree';

// Reproductions of a hostile round, end to end: the built `mtrl` CLI in a child process. Each must end with a sentence
// (no stack trace), within its timeout + 10 s, with every process it starts (the CLI, Python, whatever that Python
// starts) at a peak of at most 600 MB, and no process or listening port left. Every case prints its figures and ✓ or ✗;
// any ✗ makes the bench exit 1.

const root = path.resolve(__dirname, '../..');
const BOUND_MB = 600;
const GRACE_S = 10;

/** One reproduction: the CLI's arguments (after setting up what it meets), its timeout, and the sentence it must end with. */
export interface Case {
  what: string;
  timeoutS: number;
  sentence: RegExp;
  setup(): Promise<{ args: string[]; close?: () => Promise<void> }>;
  /** A figure measured once the run ended (e.g. what it wrote to the store), and a fault when it breaks a bound. */
  after?(): { figure: string; fault?: string };
}

/** `mtrl signal --local AGENT` (one row × `groupSize` rollouts at once, a rollout timeout of `timeoutS`, a store under `dir`)
 * against a policy stand-in, or the emulator's policy. */
export function againstPolicy(
  dir: string,
  agent: string,
  mode?: PolicyMode,
  { groupSize = 1, store, timeoutS = 60 }: { groupSize?: number; store?: string; timeoutS?: number } = {},
): Case['setup'] {
  return async () => {
    const policy = mode ? await startPolicyStandIn(mode) : { baseUrl: 'emulator', close: async () => undefined };
    return {
      args: [
        'signal',
        '--local',
        path.join(root, 'test/fixtures/signal', agent),
        '--data',
        path.join(root, 'test/fixtures/datasets/training-data.jsonl'),
        '--rows',
        '1',
        '--group-size',
        String(groupSize),
        '--timeout',
        String(timeoutS),
        '--policy',
        policy.baseUrl,
        '--store',
        store ?? mkdtempSync(path.join(dir, 'store-')),
      ],
      close: policy.close,
    };
  };
}

const mb = (kb: number) => Math.round(kb / 1024);

/** The first line that shows the case's sentence, else the first line of stderr, else of stdout. */
function sentenceOf(run: Watched, sentence: RegExp): string {
  const lines = `${run.stderr}\n${run.stdout}`.split('\n').filter((l) => l.trim());
  return lines.find((l) => sentence.test(l)) ?? run.stderr.split('\n').find((l) => l.trim()) ?? lines[0] ?? '';
}

/** Builds the CLI, runs each case in turn, prints its figures; sets the exit code when any broke a bound. */
export async function runReproductions(cases: readonly Case[]): Promise<void> {
  execFileSync(process.execPath, ['scripts/build.mjs'], { cwd: root, stdio: 'ignore' });
  let broken = 0;
  const load = () => loadavg()[0].toFixed(1);
  console.log(`${cpus().length} cores, load average ${load()} (wall times grow with it; cpu times do not)`);
  for (const c of cases) {
    const { args, close } = await c.setup();
    let run: Watched;
    try {
      run = await watch([process.execPath, 'dist/cli.js', ...args], { cwd: root, guardMs: (c.timeoutS + GRACE_S + 15) * 1000 });
    } finally {
      await close?.();
    }
    const cli = run.processes.find((p) => p.name.endsWith('dist/cli.js'));
    const python = run.processes.filter((p) => /python/.test(p.name));
    const biggest = run.processes.reduce((a, p) => (p.peakKb > a.peakKb ? p : a), { pid: 0, name: '', peakKb: 0 });
    const line = sentenceOf(run, c.sentence);
    const measured = c.after?.();
    // A daemon names itself on stderr, which the sentence quotes: checked by its own pid and port too, not only by the poll.
    const daemon = /daemon pid (\d+) port (\d+)/.exec(`${run.stderr}\n${run.stdout}`)?.slice(1).map(Number);
    const daemonLeft = daemon && (running(daemon[0]) || !(await refused(daemon[1])));
    if (daemon && running(daemon[0])) process.kill(daemon[0], 'SIGKILL');
    const faults = [
      run.seconds > c.timeoutS + GRACE_S && `took ${run.seconds.toFixed(1)} s, over ${c.timeoutS} + ${GRACE_S} s`,
      Math.max(run.treePeakKb, biggest.peakKb) > BOUND_MB * 1024 &&
        `a process peaked at ${mb(Math.max(run.treePeakKb, biggest.peakKb))} MB (${biggest.name})`,
      run.signal && `ended by ${run.signal}`,
      (run.code === 0 || run.code === null || run.code > 2) && `exit ${run.code}`,
      !c.sentence.test(`${run.stderr}\n${run.stdout}`) && `no sentence matching ${c.sentence}`,
      /^\s+at .+:\d+:\d+\)?$/m.test(run.stderr) && 'a stack trace',
      run.left.length && `${run.left.length} processes left (${run.left.map((p) => p.name).join(', ')})`,
      run.portsLeft && `${run.portsLeft} listening ports left`,
      daemonLeft && `the daemon (pid ${daemon[0]}, port ${daemon[1]}) still runs or listens`,
      measured?.fault,
    ].filter(Boolean);
    if (faults.length) broken++;
    const peak = mb(cli?.peakKb ?? 0);
    console.log(
      `${faults.length ? '✗' : '✓'} ${c.what}: exit ${run.code}, ${run.seconds.toFixed(1)} s (cpu ${run.cpuSeconds.toFixed(1)} s; timeout ${c.timeoutS} s + ${GRACE_S}), ` +
        `peak CLI ${peak} MB (${(peak / BOUND_MB).toFixed(2)} of ${BOUND_MB}), Python ${python.length ? `${mb(Math.max(...python.map((p) => p.peakKb)))} MB (${python.length} processes)` : '—'}, ` +
        `largest in the tree ${mb(run.treePeakKb)} MB (≤ ${BOUND_MB}); left: ${run.left.length} processes, ${run.portsLeft} ports`,
    );
    console.log(`    ${line.slice(0, 220)}`);
    if (measured) console.log(`    ${measured.figure}`);
    for (const fault of faults) console.log(`    ✗ ${fault}`);
  }
  console.log(`load average ${load()} at the end`);
  console.log(broken ? `✗ ${broken} of ${cases.length} reproductions broke a bound` : `✓ all ${cases.length} reproductions within bounds`);
  if (broken) process.exitCode = 1;
}
