// `npm test`: every test. Type check, build, unit tests in plain Node, then the host suites in a real VS Code (the
// browser harness, its minimum-version lane on VS Code 1.103, and desktop VS Code when one is installed). Ends with one summary line,
// "total: N passed, N failed, N skipped", counting every suite that ran; a suite set that could not run is skipped, never passed.
import { spawn } from 'node:child_process';
import { existsSync, readFileSync, rmSync } from 'node:fs';
import path from 'node:path';
import { stripVTControlCharacters } from 'node:util';
import { tsImport } from 'tsx/esm/api';
import { lowerPriority } from '../test/host/lib/processes.mjs';

const root = path.resolve(path.dirname(new URL(import.meta.url).pathname), '..');
const totals = { passed: 0, failed: 0, skipped: 0 };
// What failed, repeated above the total: a CI log is often read from its end only.
const failures = [];

/**
 * Runs a command, echoing and capturing stdout to read the counts; `quiet` keeps both streams for later instead.
 * `background` runs it (and what it starts) at the lowest CPU priority: it takes only what the unit tests leave idle.
 */
function run(cmd, args, { quiet = false, background = false } = {}) {
  return new Promise((resolve) => {
    const child = spawn(cmd, args, { cwd: root, stdio: ['ignore', 'pipe', quiet ? 'pipe' : 'inherit'] });
    if (background) lowerPriority(child.pid);
    let out = '';
    const take = (chunk) => {
      if (!quiet) process.stdout.write(chunk);
      out += chunk;
    };
    child.stdout.on('data', take);
    child.stderr?.on('data', take);
    child.on('close', (code) => resolve({ code: code ?? 1, out }));
  });
}

const started = Date.now();
/** Marks a phase's end with the minutes since the start, so a log shows where CI's time goes. */
const phase = (name) => console.log(`\ntest: ${name} done at ${((Date.now() - started) / 60_000).toFixed(1)} min`);

function step(name, ok, { timed = true } = {}) {
  if (timed) phase(name);
  if (ok) return;
  totals.failed += 1;
  failures.push(name);
  console.error(`\n${name} failed`);
}

// The static checks (each one process on one core) run beside the build and the unit tests, which mostly wait on the
// processes and servers they start; their output is printed once they end, so it never interleaves with the tests'.
// In the background priority, as the Python clients below: at the normal one they took CPU the unit tests' processes
// wait on.
const staticChecks = (async () => {
  const background = { quiet: true, background: true };
  const typecheck = await run(process.execPath, ['node_modules/typescript/bin/tsc', '--noEmit', '-p', '.'], background);
  phase('type check');
  const lint = await run(process.execPath, ['node_modules/eslint/bin/eslint.js', '.'], background);
  phase('lint');
  const format = await run(process.execPath, ['node_modules/prettier/bin/prettier.cjs', '--check', '.', '--log-level', 'warn'], background);
  phase('format');
  return [
    ['type check', typecheck],
    ['lint (ESLint)', lint],
    ['format (Prettier)', format],
  ];
})();

const build = await run(process.execPath, ['scripts/build.mjs']);
step('build', build.code === 0);

// The Python clients (boto3, openai) against the emulator mostly wait on it: they run beside the unit tests, printed after,
// in the background priority (88 Python processes, 60 s of CPU: scripts/boto3.mjs lowers them, not the emulator they
// call). The job they stop runs minutes on the emulator's clock, so a starved client still finds it running.
const boto3Report = path.join(root, 'test-results/boto3-summary.json');
rmSync(boto3Report, { force: true });
const boto3Run = run(process.execPath, ['scripts/boto3.mjs'], { quiet: true });

const unit = await run(process.execPath, ['node_modules/mocha/bin/mocha.js', '--color']);
const count = (label) => Number(/(\d+) (\w+)/.exec(unit.out.match(new RegExp(`\\d+ ${label}`))?.[0] ?? '0 x')[1]);
totals.passed += count('passing');
totals.failed += count('failing');
// A unit test that cannot run here (Firefox not installed) says why in its own line and counts as skipped.
totals.skipped += count('pending');
// Mocha lists each failure as "  1) suite" with its title on the lines below and the error's first line under them,
// after the "N failing" line: the summary keeps the error too, since a CI log is often read from its end only.
const failingSection = stripVTControlCharacters(unit.out).split(/\d+ failing/)[1] ?? '';
for (const m of failingSection.matchAll(/^ {2}\d+\) (.+)\n((?: {7}.+\n)*)\n?(?: {4,8}(\S.*))?/gm))
  failures.push(`unit: ${[m[1], ...m[2].split('\n').map((l) => l.trim()), m[3] ?? ''].filter(Boolean).join(' ')}`);
step('unit tests', unit.code === 0 || count('failing') > 0);

// A boto3 that cannot be installed is a skip, never a pass.
const boto3 = await boto3Run;
if (boto3.out.trim()) console.log(`\n${boto3.out.trimEnd()}`);
const boto3Summary = existsSync(boto3Report) ? JSON.parse(readFileSync(boto3Report, 'utf8')) : { passed: 0, failed: 1, skipped: 0 };
totals.passed += boto3Summary.passed;
totals.failed += boto3Summary.failed;
if (boto3Summary.failed) failures.push(`Python client tests (boto3, openai): ${boto3Summary.failed} failed, their lines above`);
if (boto3Summary.skipped) {
  totals.skipped += boto3Summary.skipped;
  console.log(`\nskipped: the boto3 client test (${boto3Summary.reason})`);
}
step('boto3 client test', boto3.code === 0 || boto3Summary.failed > 0);

/** Starts one host run (the browser harness, or `--desktop`); `quiet` keeps its output for `countHost` to print. */
function startHost(args, summaryFile, { quiet = true } = {}) {
  rmSync(path.join(root, 'test-results', summaryFile), { force: true });
  return run(process.execPath, [hostDriver, ...args], { quiet }).then((result) => ({
    ...result,
    minutes: ((Date.now() - started) / 60_000).toFixed(1),
  }));
}

/** Counts a host run from the summary file its driver writes. */
function countHost(name, host, summaryFile, { quiet = true } = {}) {
  if (quiet) console.log(`\n${host.out.trimEnd()}`);
  const report = path.join(root, 'test-results', summaryFile);
  const summary = existsSync(report) ? JSON.parse(readFileSync(report, 'utf8')) : undefined;
  if (summary) {
    totals.passed += summary.passed;
    totals.failed += summary.failed;
  }
  for (const line of host.out.split('\n')) if (/^\s+✗ /.test(line)) failures.push(`${name}: ${line.trim().slice(2)}`);
  console.log(`\ntest: ${name} done at ${host.minutes} min`);
  step(name, host.code === 0 || (summary?.failed ?? 0) > 0, { timed: false });
}

// The host runs after the unit tests: both keep this machine's cores busy (tried: at once the load reached 25-30 on 2 cores
// and the type check alone took 5.3 min instead of 1.1). The minimum-version lane runs beside the full suite, whose servers wait more than work.
const hostDriver = path.join(root, 'test/host/driver.mjs');
if (existsSync(hostDriver) && process.env.MTRL_SKIP_HOST !== '1') {
  // One .vsix for every host run: each driver would package the same one, the second waiting on the first's lock
  // (36 s of the full suite's start in CI). A failure here leaves each driver to package, and to report why it cannot.
  const packaged = await run(process.execPath, ['scripts/package.mjs'], { quiet: true });
  const { version } = JSON.parse(readFileSync(path.join(root, 'package.json'), 'utf8'));
  if (packaged.code === 0) process.env.MTRL_HOST_VSIX = path.join(root, `dist/mtrl-workbench-${version}.vsix`);
  phase('packaging the .vsix for the host runs');
  const lane = startHost(['--oldest'], 'oldest-summary.json');
  // The full run starts its untrusted phase and first windows once the lane's summary is written: the lane frees the cores.
  process.env.MTRL_HOST_AFTER_LANE = path.join(root, 'test-results/oldest-summary.json');
  countHost('host tests', await startHost([], 'host-summary.json', { quiet: false }), 'host-summary.json', { quiet: false });
  countHost('minimum-version lane (VS Code 1.103)', await lane, 'oldest-summary.json');
  const { findDesktopVsCode, machineLookup } = await tsImport('../test/host/lib/desktop.ts', import.meta.url);
  const desktop = findDesktopVsCode(machineLookup());
  if (desktop.missing) {
    totals.skipped += 1;
    console.log(`\ndesktop: skipped the host suites in desktop VS Code: ${desktop.missing}`);
  } else {
    countHost('desktop host tests', await startHost(['--desktop'], 'desktop-summary.json', { quiet: false }), 'desktop-summary.json', {
      quiet: false,
    });
  }
}

// Awaited last: the checks use no build, so the host runs need not wait for their tail (the format check ended 0.3 min
// after the unit tests in CI, and the host phase started only then); in the background priority they take what is left.
for (const [name, check] of await staticChecks) {
  console.log(`\n${name}: ${check.code === 0 ? 'passed' : 'failed'}`);
  if (check.out.trim()) console.log(check.out.trimEnd());
  step(name, check.code === 0, { timed: false });
}

if (failures.length) console.log(`\nfailed:\n${[...new Set(failures)].map((f) => `  ✗ ${f}`).join('\n')}`);
console.log(`\ntotal: ${totals.passed} passed, ${totals.failed} failed, ${totals.skipped} skipped`);
process.exitCode = totals.failed > 0 ? 1 : 0;
