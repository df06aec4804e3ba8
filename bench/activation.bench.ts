// Activation time of the packaged extension in the real extension host (VS Code 1.139.1 server), from the host harness.
// Baseline, same host and same run: the test-runner extension's own activate(), which does nothing but read its config.
import { execFileSync } from 'node:child_process';
import { readFileSync } from 'node:fs';
import path from 'node:path';

const root = path.resolve(__dirname, '..');
const runs = Number(process.env.MTRL_BENCH_HOST_RUNS ?? 3);

interface Figures {
  activationMs: number;
  /** Only when the suite found the extension not yet active (an activation event can beat it). */
  activateCallMs?: number;
  runnerActivationMs: number;
  sessionMs: number;
}

function oneRun(): Figures {
  const at = Date.now();
  execFileSync(process.execPath, ['test/host/driver.mjs'], {
    cwd: root,
    stdio: 'ignore',
    env: { ...process.env, MTRL_HOST_GREP: 'activation', MTRL_HOST_PHASE: 'trusted' },
  });
  const report = JSON.parse(readFileSync(path.join(root, 'test-results/host/trusted-report.json'), 'utf8'));
  const m = report.measurements as Record<string, number>;
  for (const key of ['activationMs', 'runnerActivationMs']) {
    if (typeof m[key] !== 'number') throw new Error(`the host run recorded no ${key}: see test-results/host/`);
  }
  return {
    activationMs: m.activationMs,
    activateCallMs: m.activateCallMs,
    runnerActivationMs: m.runnerActivationMs,
    sessionMs: Date.now() - at,
  };
}

const median = (values: number[]) => (values.length ? [...values].sort((a, b) => a - b)[Math.floor(values.length / 2)] : NaN);

const samples = Array.from({ length: runs }, oneRun);
const pick = (key: keyof Figures) => median(samples.flatMap((s) => (s[key] === undefined ? [] : [s[key]])));
const activation = pick('activationMs');
const call = pick('activateCallMs');
const baseline = pick('runnerActivationMs');

console.log(`host sessions: ${runs}, medians`);
console.log(`activate() inside the extension       ${activation.toFixed(1).padStart(8)} ms`);
if (!Number.isNaN(call)) console.log(`first activate() call (load + run)    ${call.toFixed(1).padStart(8)} ms`);
console.log(`baseline: runner extension activate() ${baseline.toFixed(2).padStart(8)} ms`);
console.log(`ratio activate() / baseline           ${(activation / baseline).toFixed(1).padStart(8)} x`);
console.log(`whole host session (package + server + browser + suite) ${(pick('sessionMs') / 1000).toFixed(1)} s`);
