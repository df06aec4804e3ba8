// The Python client tests: boto3 and the official openai client (installed with pip into a cached virtual environment)
// drive the emulator through the write-up's workflow (test/python/boto3_workflow.py), and the Job Runtime of the
// emulator and of `mtrl signal --local` (test/python/job_runtime_clients.py). `--install` only prepares the environment.
// Writes test-results/boto3-summary.json: { passed, failed, skipped, reason? }. When boto3 cannot be installed
// the run says so on its own line and counts the test as skipped, never as passed.
import { spawn, spawnSync } from 'node:child_process';
import { existsSync, mkdirSync, writeFileSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { tsImport } from 'tsx/esm/api';
import { acquireLock } from '../test/host/lib/lock.mjs';
import { lowerPriority } from '../test/host/lib/processes.mjs';

const { ceiling } = await tsImport('../test/host/lib/ceiling.ts', import.meta.url);

const BOTO3_VERSION = '1.43.107';
// The agents people write call the policy with the openai client (Strands' OpenAIModel wraps it).
const OPENAI_VERSION = '3.22.1';
const root = path.resolve(path.dirname(new URL(import.meta.url).pathname), '..');
const venv = path.join(os.homedir(), '.cache/mtrl-workbench', `venv-boto3-${BOTO3_VERSION}`);
const python = path.join(venv, 'bin/python');
const summaryFile = path.join(root, 'test-results/boto3-summary.json');

function summarize(summary) {
  mkdirSync(path.dirname(summaryFile), { recursive: true });
  writeFileSync(summaryFile, `${JSON.stringify(summary)}\n`);
}

const BOTO3_ONLY = `import boto3; assert boto3.__version__ == "${BOTO3_VERSION}"`;
const BOTH = `import boto3, openai; assert boto3.__version__ == "${BOTO3_VERSION}" and openai.__version__ == "${OPENAI_VERSION}"`;
const importable = (check) => existsSync(python) && spawnSync(python, ['-c', check]).status === 0;
const has = () => importable(BOTH);

/**
 * The cached environment with boto3 and openai, created on first use under a lock (CI runs beside each other share the
 * cache); the reason when it cannot be.
 */
async function ensureBoto3() {
  if (has()) return undefined;
  mkdirSync(path.dirname(venv), { recursive: true });
  const release = await acquireLock(`${venv}.lock`, { label: 'another run installing boto3', onWait: (m) => console.log(`boto3: ${m}`) });
  try {
    // Another run may have finished the install while this one waited.
    if (has()) return undefined;
    return importable(BOTO3_ONLY) ? addOpenai() : install();
  } finally {
    release();
  }
}

/** An environment made before the openai client joined: only openai is added. */
function addOpenai() {
  console.log(`boto3: installing openai ${OPENAI_VERSION} into ${venv}`);
  const pip = spawnSync(python, ['-m', 'pip', 'install', '--quiet', '--retries', '0', `openai==${OPENAI_VERSION}`], { encoding: 'utf8' });
  if (pip.status === 0 && has()) return undefined;
  return `pip install openai==${OPENAI_VERSION} failed: ${(pip.stderr || pip.stdout).trim().split('\n').pop()}`;
}

function install() {
  const system = ['python3', 'python'].find((p) => spawnSync(p, ['--version']).status === 0);
  if (!system) return 'no python3 on PATH';
  const made = spawnSync(system, ['-m', 'venv', '--clear', venv], { encoding: 'utf8' });
  if (made.status !== 0) return `python3 -m venv failed: ${(made.stderr || made.stdout).trim().split('\n').pop()}`;
  console.log(`boto3: installing boto3 ${BOTO3_VERSION} and openai ${OPENAI_VERSION} into ${venv}`);
  // No retries: an index that does not answer fails fast instead of stalling the run.
  const pip = spawnSync(
    python,
    ['-m', 'pip', 'install', '--quiet', '--retries', '0', `boto3==${BOTO3_VERSION}`, `openai==${OPENAI_VERSION}`],
    {
      encoding: 'utf8',
    },
  );
  if (pip.status !== 0 || !has())
    return `pip install boto3==${BOTO3_VERSION} openai==${OPENAI_VERSION} failed: ${(pip.stderr || pip.stdout).trim().split('\n').pop()}`;
  return undefined;
}

/** Starts the built emulator fast enough that a two-step job completes in seconds; resolves with its URL. */
function startEmulator() {
  const child = spawn(process.execPath, [path.join(root, 'dist/cli.js'), 'emulator', '--json', '--speed', '2000', '--no-history'], {
    stdio: ['ignore', 'pipe', 'inherit'],
  });
  return new Promise((resolve, reject) => {
    let out = '';
    child.stdout.on('data', (chunk) => {
      out += chunk;
      const line = out.split('\n').find((l) => l.startsWith('{'));
      if (line) resolve({ child, url: JSON.parse(line).url });
    });
    child.on('exit', (code) => reject(new Error(`the emulator exited with ${code} before listening`)));
  });
}

/**
 * Runs one Python test script, echoing its lines; its closing counts (a crash counts as a failure). The script (and what
 * it starts) runs at the lowest CPU priority, beside the unit tests; the emulator it calls does not: at that priority,
 * busy, it once left a request unanswered past boto3's read timeout (load 60). Its waits scale with the load.
 */
async function runScript(args) {
  const env = { ...process.env, NODE: process.execPath, MTRL_WAIT_SCALE: String(ceiling(1000) / 1000) };
  const script = spawn(python, args, { stdio: ['ignore', 'pipe', 'inherit'], env });
  lowerPriority(script.pid);
  let out = '';
  let printed = 0;
  script.stdout.on('data', (chunk) => {
    out += chunk;
    const complete = out.lastIndexOf('\n') + 1;
    for (const line of out.slice(printed, complete).split('\n').filter(Boolean)) console.log(`boto3: ${line}`);
    printed = Math.max(printed, complete);
  });
  const code = await new Promise((resolve) => script.on('close', resolve));
  const last = out.trim().split('\n').pop() ?? '';
  const counts = last.startsWith('{') ? JSON.parse(last) : { passed: 0, failed: 1 };
  if (code !== 0 && counts.failed === 0) counts.failed = 1;
  return counts;
}

const missing = await ensureBoto3();
if (missing) {
  console.log(`boto3: SKIPPED, the Python client test did not run: ${missing}`);
  summarize({ passed: 0, failed: 0, skipped: 1, reason: missing });
} else if (!process.argv.includes('--install')) {
  if (!existsSync(path.join(root, 'dist/cli.js'))) {
    console.log('boto3: FAILED, dist/cli.js is missing: run npm run build first');
    summarize({ passed: 0, failed: 1, skipped: 0 });
    process.exit(1);
  }
  const { child, url } = await startEmulator();
  const runs = [
    [path.join(root, 'test/python/boto3_workflow.py'), url, path.join(root, 'test/fixtures/datasets')],
    [path.join(root, 'test/python/job_runtime_clients.py'), root],
  ];
  const counts = { passed: 0, failed: 0 };
  for (const args of runs) {
    const got = await runScript(args);
    counts.passed += got.passed;
    counts.failed += got.failed;
  }
  child.kill();
  summarize({ ...counts, skipped: 0 });
  process.exitCode = counts.failed > 0 ? 1 : 0;
}
