// Agent lint latency on save: the python ast lint against the bare start of the same interpreter, and the regex fallback.
// Run: npm run bench (or: node --import tsx bench/lint.bench.ts)
import { execFileSync } from 'node:child_process';
import { readFileSync } from 'node:fs';
import path from 'node:path';
import { lintAgentByRegex, lintTrustPolicy, readPythonLintOutput } from '../src/core/lint';
import { runPythonLint } from '../src/services/python/agentLint';

const root = path.resolve(__dirname, '..');
const SCRIPT = path.join(root, 'src/python/agent_lint.py');
const ROUNDS = 7;

// A long agent: the per-call-token fixture followed by 60 helper functions (about 450 lines).
const helpers = Array.from(
  { length: 60 },
  (_, i) =>
    `\n\ndef helper_${i}(state, guess):\n    known = {c for c in guess if c in state}\n    if len(known) > ${i % 5}:\n        return sorted(known)\n    return [c for c in guess if c not in state]\n`,
).join('');
const source = readFileSync(path.join(root, 'test/fixtures/lint/per_call_token.py'), 'utf8') + helpers;

function median(values: number[]): number {
  const sorted = [...values].sort((a, b) => a - b);
  return sorted[Math.floor(sorted.length / 2)];
}

async function timed(fn: () => unknown | Promise<unknown>): Promise<number> {
  const at = performance.now();
  await fn();
  return performance.now() - at;
}

async function main(): Promise<void> {
  const baseline: number[] = [];
  const python: number[] = [];
  const regex: number[] = [];
  let findings = 0;
  for (let i = 0; i < ROUNDS; i++) {
    baseline.push(await timed(() => execFileSync('python3', ['-I', '-c', 'import ast, json, sys; sys.stdin.read()'], { input: source })));
    python.push(
      await timed(async () => {
        const result = readPythonLintOutput(await runPythonLint('python3', SCRIPT, source), source);
        findings = 'findings' in result ? result.findings.length : -1;
      }),
    );
    regex.push(await timed(() => lintAgentByRegex(source)));
  }
  const lines = source.split('\n').length;
  console.log(`agent lint of a ${lines}-line main.py, median of ${ROUNDS}: ${findings} findings`);
  console.log(`  python3 start + read stdin (baseline): ${median(baseline).toFixed(1)} ms`);
  console.log(
    `  python ast lint:                       ${median(python).toFixed(1)} ms  (${(median(python) / median(baseline)).toFixed(2)}x baseline)`,
  );
  console.log(
    `  regex fallback:                        ${median(regex).toFixed(2)} ms  (${(median(regex) / median(baseline)).toFixed(3)}x baseline)`,
  );
}

/** Median time of `lint` over `copies` of a piece with a finding each: linear work makes 4x the copies cost about 4x the time. */
function scale(what: string, lint: (copies: number) => unknown): void {
  const run = (copies: number) =>
    median(
      Array.from({ length: ROUNDS }, () => {
        const at = performance.now();
        lint(copies);
        return performance.now() - at;
      }),
    );
  // One warm-up run, so the first size does not carry the compiler's time.
  lint(4000);
  const small = run(1000);
  const large = run(4000);
  console.log(
    `  ${what}, 1,000 vs 4,000: ${small.toFixed(1)} / ${large.toFixed(1)} ms, ratio ${(large / small).toFixed(1)} (linear ≈ 4, quadratic ≈ 16)`,
  );
}

function scaling(): void {
  const swapped = readFileSync(path.join(root, 'test/fixtures/lint/swapped_decorators.py'), 'utf8');
  const block = swapped.slice(swapped.indexOf('@sagemaker_rft_handler'), swapped.indexOf('if __name__'));
  scale('regex lint of swapped handlers', (copies) => lintAgentByRegex(block.repeat(copies)));
  const statement = '{"Effect":"Allow","Principal":{"Service":"sagemaker.amazonaws.com"},"Action":"sts:AssumeRole"}';
  scale('role lint of statements trusting sagemaker.amazonaws.com', (copies) =>
    lintTrustPolicy(`{"Statement":[\n${Array.from({ length: copies }, () => statement).join(',\n')}\n]}`),
  );
}

void main().then(scaling);
