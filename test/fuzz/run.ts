// A fuzz campaign: cases built from (seed, target, index), run under the watchdog, failures saved with how to replay them.
import { mkdirSync, writeFileSync } from 'node:fs';
import path from 'node:path';
import { validateDataset } from '../../src/core/dataset';
import { offThreadParquet } from '../../src/services/parquet/offThread';
import { minimize } from './minimize';
import { caseRandom, mutate, type MutationKind } from './mutate';
import { targetNamed } from './targets';
import { Watchdog, type CaseReply } from './watchdog';

export interface FuzzOptions {
  seed: number;
  cases: number;
  targets: readonly string[];
  /** Milliseconds a case may take before it counts as a hang. */
  budgetMs: number;
  /** Largest input a repeat may grow to (default MAX_CASE_BYTES). */
  maxBytes?: number;
  /** Only this case index (to replay one failure). */
  only?: number;
  /** Where failing inputs are written; none when absent. */
  saveDir?: string;
  log?: (line: string) => void;
}

export interface CaseFailure {
  kind: Exclude<CaseReply['kind'], 'ok'>;
  target: string;
  index: number;
  steps: MutationKind[];
  detail: string;
  bytes: number;
  file?: string;
}

export interface TargetFigures {
  target: string;
  cases: number;
  /** Inputs that made the Parquet decoder loop, each ended by the product's off-thread time budget with one finding. */
  contained: number;
  failures: CaseFailure[];
  ms: number;
}

/** Budget of the product's Parquet decoder when a looping case is replayed through it. */
const CONTAINED_BUDGET_SECONDS = 2;

/** Whether the product's own path (the off-thread decoder with its time budget) ends a Parquet case that looped in the fuzz worker. */
async function containedByBudget(bytes: Uint8Array, budgetMs: number): Promise<boolean> {
  const run = validateDataset(
    (async function* () {
      yield bytes;
    })(),
    { format: 'parquet', parquetDecoder: offThreadParquet(CONTAINED_BUDGET_SECONDS) },
  );
  let timer: NodeJS.Timeout | undefined;
  const late = new Promise<undefined>((resolve) => (timer = setTimeout(resolve, budgetMs + CONTAINED_BUDGET_SECONDS * 1000, undefined)));
  const report = await Promise.race([run, late]);
  clearTimeout(timer);
  return report?.findings.some((f) => f.code === 'read-timeout') ?? false;
}

/** Writes the failing input, its minimized form (when it could be shrunk) and how to replay it; returns the file of the input. */
function save(dir: string, seed: number, failure: CaseFailure, bytes: Uint8Array, minimized?: Uint8Array): string {
  const folder = path.join(dir, failure.target);
  mkdirSync(folder, { recursive: true });
  const file = path.join(folder, `${failure.kind}-seed${seed}-case${failure.index}.bin`);
  writeFileSync(file, bytes);
  if (minimized && minimized.length < bytes.length) writeFileSync(file.replace(/\.bin$/, '.min.bin'), minimized);
  writeFileSync(
    `${file}.txt`,
    `npm run fuzz -- --seed ${seed} --target ${failure.target} --case ${failure.index}\n${failure.steps.join(', ')}\n${failure.detail}\n`,
  );
  return file;
}

export async function fuzz(options: FuzzOptions): Promise<TargetFigures[]> {
  const watchdog = new Watchdog(options.budgetMs);
  const figures: TargetFigures[] = [];
  try {
    for (const name of options.targets) {
      const target = targetNamed(name);
      const seeds = target.seeds();
      const started = performance.now();
      const result: TargetFigures = { target: name, cases: 0, contained: 0, failures: [], ms: 0 };
      const first = options.only ?? 0;
      const end = options.only !== undefined ? options.only + 1 : options.cases;
      for (let index = first; index < end; index++) {
        const random = caseRandom(options.seed, name, index);
        const { bytes, steps } = mutate(seeds, random, options.maxBytes);
        const request = { target: name, bytes, splitSeed: random.int(2 ** 31) };
        const reply = await watchdog.run(request);
        result.cases++;
        if (reply.kind === 'ok') continue;
        if (reply.kind === 'hang' && name === 'dataset-parquet' && (await containedByBudget(bytes, options.budgetMs))) {
          result.contained++;
          continue;
        }
        const failure: CaseFailure = { kind: reply.kind, target: name, index, steps, detail: reply.detail, bytes: bytes.length };
        if (options.saveDir) {
          const minimized = reply.kind === 'hang' ? undefined : await minimize(watchdog, request, reply);
          failure.file = save(options.saveDir, options.seed, failure, bytes, minimized);
        }
        result.failures.push(failure);
        options.log?.(`  ${name} case ${index}: ${reply.kind} (${steps.join(', ')}): ${reply.detail.split('\n')[0]}`);
      }
      result.ms = performance.now() - started;
      figures.push(result);
      options.log?.(describeFigures(result));
    }
  } finally {
    await watchdog.close();
  }
  return figures;
}

export function describeFigures(f: TargetFigures): string {
  const count = (kind: CaseFailure['kind']) => f.failures.filter((x) => x.kind === kind).length;
  const contained = f.contained ? `, ${f.contained} decoder loops ended by the product's time budget` : '';
  return `${f.target}: ${f.cases} cases, ${count('exception')} exceptions, ${count('hang')} hangs, ${count('mismatch')} whole/split mismatches, ${count('bad-message')} bad messages${contained} (${(f.ms / 1000).toFixed(1)} s)`;
}
