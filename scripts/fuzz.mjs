// `npm run fuzz`: mutation fuzzing of the dataset validator, the rollout reader and the lints, each case under a watchdog.
// Flags: --seed N (default 1), --cases N per target (default 5000), --target NAME (repeatable; default all),
// --case I (replay one case), --budget S (seconds before a case counts as a hang, default 30), --max-bytes N (largest
// input a repeat grows to, default 1 MiB), --out DIR (failing inputs, default test-results/fuzz).
import path from 'node:path';
import { parseArgs } from 'node:util';
import { tsImport } from 'tsx/esm/api';

const root = path.resolve(path.dirname(new URL(import.meta.url).pathname), '..');
process.chdir(root);
const { values } = parseArgs({
  options: {
    seed: { type: 'string', default: '1' },
    cases: { type: 'string', default: '5000' },
    target: { type: 'string', multiple: true },
    case: { type: 'string' },
    budget: { type: 'string', default: '30' },
    'max-bytes': { type: 'string' },
    out: { type: 'string', default: 'test-results/fuzz' },
  },
});
const { fuzz } = await tsImport('../test/fuzz/run.ts', import.meta.url);
const { TARGETS } = await tsImport('../test/fuzz/targets.ts', import.meta.url);
const targets = values.target?.flatMap((t) => t.split(',')) ?? TARGETS.map((t) => t.name);
const started = performance.now();
const figures = await fuzz({
  seed: Number(values.seed),
  cases: Number(values.cases),
  targets,
  budgetMs: Number(values.budget) * 1000,
  maxBytes: values['max-bytes'] === undefined ? undefined : Number(values['max-bytes']),
  only: values.case === undefined ? undefined : Number(values.case),
  saveDir: path.resolve(values.out),
  log: (line) => console.log(line),
});
const failures = figures.flatMap((f) => f.failures);
console.log(
  `\nfuzz seed ${values.seed}: ${figures.reduce((n, f) => n + f.cases, 0)} cases over ${figures.length} targets, ${failures.length} failures, ${((performance.now() - started) / 1000).toFixed(1)} s`,
);
for (const f of failures) console.log(`  saved ${path.relative(root, f.file)}`);
process.exitCode = failures.length ? 1 : 0;
