// Unit tests: every timeout is a ceiling that scales with the machine's load, as the host suites' waits do.
const { mkdtempSync, readdirSync, rmSync } = require('node:fs');
const { tmpdir } = require('node:os');
const path = require('node:path');
const { require: tsRequire } = require('tsx/cjs/api');
const { LOAD_AT_START_VARIABLE, ceiling, loadFactor } = tsRequire('./test/host/lib/ceiling.ts', __filename);

// Measured once before the tests add their own load; mocha's worker process and each test's ceiling() read it.
process.env[LOAD_AT_START_VARIABLE] ??= loadFactor().toFixed(2);

// The temporary folders of the tests and of every process they start go under one folder of this run, removed when
// mocha ends: tests that made one and never removed it left about 100 in /tmp per run. Workers inherit it.
if (!process.env.MTRL_UNIT_TMPDIR) {
  const dir = mkdtempSync(path.join(tmpdir(), 'mtrl-unit-'));
  process.env.MTRL_UNIT_TMPDIR = process.env.TMPDIR = process.env.TMP = process.env.TEMP = dir;
  process.on('exit', () => rmSync(dir, { recursive: true, force: true }));
}

// The longest files first (measured alone on the 2-core machine, 2026-12-06: 27 s down to 9 s each), then the rest:
// mocha's workers take files in list order, and a file of many seconds started last keeps the phase waiting on it while
// the other core idles (one of 10 s started last did). A name gone from here only loses its turn.
const LONGEST_FIRST = [
  'cli/reportFirefox.test.ts',
  'services/signal/localSignal.test.ts',
  'cli/cleanupSafety.test.ts',
  'fuzz.test.ts',
  'cli/signalDemoAgent.test.ts',
  'cli/report.test.ts',
  'features/replay/board.test.ts',
  'cli.test.ts',
  'cli/health.test.ts',
  'features/replay/transcript.test.ts',
  'services/rollouts/readBack.test.ts',
  'features/replay/xss.test.ts',
  'features/metrics/view.test.ts',
  'services/python/rewardHarness.test.ts',
  'services/wordleScenarios.test.ts',
  'cli/rescoreJobs.test.ts',
  'features/signal/view.test.ts',
  'features/replay/steps.test.ts',
].map((name) => path.join(__dirname, 'test/unit', name));
const testFiles = readdirSync(path.join(__dirname, 'test/unit'), { recursive: true })
  .filter((name) => name.endsWith('.test.ts'))
  .map((name) => path.join(__dirname, 'test/unit', name))
  .sort();

module.exports = {
  spec: [...LONGEST_FIRST.filter((file) => testFiles.includes(file)), ...testFiles.filter((file) => !LONGEST_FIRST.includes(file))],
  extension: ['ts'],
  'node-option': ['import=tsx'],
  // `vscode` is the stub of test/unit/vscode (the feature layer is tested in plain Node); timeouts follow the load.
  require: ['test/unit/vscode/register.cjs', 'test/unit/loadScaledTimeouts.cjs'],
  // 20 s on an idle machine (the idle margin is 2), stretched up to 8x on a loaded one.
  timeout: ceiling(10_000),
  reporter: 'spec',
  // A file per core at a time: many tests wait on the processes and servers they start, and files share nothing (each
  // starts its own emulator on a free port and writes to temporary folders of its own).
  parallel: true,
  jobs: Math.max(2, require('node:os').availableParallelism()),
};
