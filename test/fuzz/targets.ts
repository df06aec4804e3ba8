// What the fuzzer feeds: each target turns bytes into its findings, whole and, where the product streams, split into chunks.
import { readdirSync, readFileSync } from 'node:fs';
import path from 'node:path';
import { validateDataset, validateText, type DatasetFormat, type DatasetReport } from '../../src/core/dataset';
import { checkHyperparameters, checkJobName, checkSchema } from '../../src/core/jobs/preflight';
import { documentFacts } from '../../src/core/jobs/document';
import { DocumentSchemas } from '../../src/core/jobs/documentSchema';
import { keyOffset, parseJobFile } from '../../src/core/jobs/jobfile';
import { isTrustPolicy, lintAgentByRegex, lintTrustPolicy, referencedJsonFiles, usesRftHandler } from '../../src/core/lint';
import { decodeFileText } from '../../src/core/text/encoding';
import { readRollouts, streamReader } from '../../src/services/rollouts';
import { SCHEMAS, SCHEMA_VERSION } from '../../src/emulator/schemas';
import type { Random } from '../../src/emulator/random';
import { cutPoints, splitAt } from './mutate';

const root = path.resolve(__dirname, '../..');

/** Findings as comparable text, and the messages in them (checked for "undefined", "NaN" and the like). */
export interface Outcome {
  findings: string;
  messages: string[];
}

/** Two runs of the same bytes whose findings differ: how the input was cut, and the first place they part. */
export interface Mismatch {
  how: string;
  whole: string;
  split: string;
}

export interface FuzzTarget {
  name: string;
  /** Valid inputs the mutations start from. */
  seeds(): Uint8Array[];
  /** Findings of the whole input, and a mismatch when a chunked run of the same bytes says otherwise. */
  run(bytes: Uint8Array, random: Random): Promise<{ outcome: Outcome; mismatch?: Mismatch }>;
}

function files(dir: string, pattern: RegExp): Uint8Array[] {
  const full = path.join(root, dir);
  return readdirSync(full)
    .filter((name) => pattern.test(name))
    .sort()
    .map((name) => readFileSync(path.join(full, name)));
}

/** The repository's datasets (copies of the real ones, v640 in all four formats) minus the known-corrupt Parquet file. */
function datasetSeeds(format: DatasetFormat): Uint8Array[] {
  const pattern = new RegExp(`^(?!hang-).*\\.${format}$`);
  return ['test/fixtures/datasets', 'test/fixtures/datasets/v640', 'test/fixtures/workspace/datasets'].flatMap((dir) =>
    files(dir, pattern),
  );
}

async function* chunks<T>(pieces: readonly T[]): AsyncGenerator<T> {
  yield* pieces;
}

function reportText(report: DatasetReport): Outcome {
  const { rows, findings, counts, truncated, omitted, overlaps } = report;
  return {
    findings: JSON.stringify({ rows, findings, counts, truncated, omitted, overlaps, ids: [...report.ids], answers: [...report.answers] }),
    messages: findings.map((f) => f.message),
  };
}

function compare(how: string, whole: Outcome, split: Outcome): Mismatch | undefined {
  if (whole.findings === split.findings) return undefined;
  let at = 0;
  while (whole.findings[at] === split.findings[at]) at++;
  const around = (text: string) => text.slice(Math.max(0, at - 80), at + 120);
  return { how, whole: around(whole.findings), split: around(split.findings) };
}

/** The dataset validator in one format: bytes whole against bytes in chunks, and (for text) the decoded text whole against text slices. */
function datasetTarget(format: DatasetFormat): FuzzTarget {
  const options = { format, role: 'training' as const, maxFindings: 200 };
  return {
    name: `dataset-${format}`,
    seeds: () => datasetSeeds(format),
    async run(bytes, random) {
      const whole = reportText(await validateDataset(chunks([bytes]), options));
      const cuts = cutPoints(bytes.length, random);
      const split = reportText(await validateDataset(chunks(splitAt(bytes, cuts)), options));
      const mismatch = compare(`bytes cut at ${cuts.join(', ')}`, whole, split);
      if (mismatch || format === 'parquet') return { outcome: whole, mismatch };
      const text = new TextDecoder().decode(bytes);
      const textWhole = reportText(await validateText(text, options));
      const textCuts = cutPoints(text.length, random);
      const textSplit = reportText(await validateDataset(chunks(splitAt(text, textCuts)), options));
      return { outcome: whole, mismatch: compare(`text cut at ${textCuts.join(', ')}`, textWhole, textSplit) };
    },
  };
}

/** Rollout logs as `mtrl rollouts` and the board read them: the rollouts and the skipped lines of the whole file and of the same bytes in chunks. */
const rolloutsTarget: FuzzTarget = {
  name: 'rollouts',
  seeds: () => [
    ...files('test/fixtures/workspace/replay', /\.log$/),
    ...files('test/fixtures/datasets', /^training-data\.jsonl$/),
    ...files('test/fixtures/fuzz/seeds', /\.log$/),
  ],
  async run(bytes, random) {
    const read = async (pieces: Uint8Array[]): Promise<Outcome> => {
      const reader = streamReader(async () => chunks(pieces));
      const rollouts = await readRollouts(reader, new AbortController().signal);
      return { findings: JSON.stringify({ rollouts, skipped: reader.skipped }), messages: [] };
    };
    const whole = await read([bytes]);
    const cuts = cutPoints(bytes.length, random);
    return { outcome: whole, mismatch: compare(`bytes cut at ${cuts.join(', ')}`, whole, await read(splitAt(bytes, cuts))) };
  },
};

let schemas: DocumentSchemas | undefined;

/** The job-file lint: parse problems with where they point, the paths it names, and the checks that need no AWS call. */
const jobFileTarget: FuzzTarget = {
  name: 'job-file',
  seeds: () => [...files('test/fixtures/demo-workspace', /\.mtrl\.json$/), ...files('test/fixtures/workspace/launch', /\.mtrl\.json$/)],
  async run(bytes) {
    const decoded = decodeFileText(bytes);
    if ('error' in decoded) return { outcome: { findings: decoded.error, messages: [decoded.error] } };
    const text = decoded.text;
    const parsed = parseJobFile(text);
    const messages = parsed.problems.map((p) => p.message);
    const places = parsed.problems.map((p) => (p.key ? keyOffset(text, p.key) : p.offset));
    const paths = referencedJsonFiles(text);
    if (parsed.jobFile) {
      const job = parsed.jobFile;
      if (!schemas) {
        schemas = new DocumentSchemas();
        for (const [category, schema] of Object.entries(SCHEMAS)) schemas.add(category, SCHEMA_VERSION, schema);
      }
      const facts = documentFacts(job.JobCategory, job.JobConfigDocument);
      const checks = [
        checkJobName(job.JobName, new Set()),
        checkHyperparameters(job.JobCategory, facts.hyperparameters),
        checkSchema(job.JobConfigSchemaVersion, schemas.validate(job.JobCategory, SCHEMA_VERSION, job.JobConfigDocument)),
      ];
      messages.push(...checks.flatMap((c) => [c.message, ...(c.fix ? [c.fix] : [])]));
    }
    return { outcome: { findings: JSON.stringify({ messages, places, paths }), messages } };
  },
};

/** The role lint of trust policies, on whatever a file decodes to (UTF-8, or UTF-16 by its BOM). */
const trustPolicyTarget: FuzzTarget = {
  name: 'trust-policy',
  seeds: () => [
    ...files('test/fixtures/lint', /\.json$/),
    ...files('test/fixtures/workspace/lint', /\.json$/),
    ...files('test/fixtures/workspace/datasets', /\.json$/),
  ],
  async run(bytes) {
    const decoded = decodeFileText(bytes);
    if ('error' in decoded) return { outcome: { findings: decoded.error, messages: [decoded.error] } };
    const findings = lintTrustPolicy(decoded.text);
    return {
      outcome: { findings: JSON.stringify({ policy: isTrustPolicy(decoded.text), findings }), messages: findings.map((f) => f.message) },
    };
  },
};

/** The agent lint's fallback (line patterns), which runs on every save of an agent when no Python does. */
const agentLintTarget: FuzzTarget = {
  name: 'agent-lint',
  seeds: () => [...files('test/fixtures/lint', /\.py$/), ...files('test/fixtures/workspace/lint', /\.py$/)],
  async run(bytes) {
    const decoded = decodeFileText(bytes);
    if ('error' in decoded) return { outcome: { findings: decoded.error, messages: [decoded.error] } };
    const findings = lintAgentByRegex(decoded.text);
    return {
      outcome: { findings: JSON.stringify({ uses: usesRftHandler(decoded.text), findings }), messages: findings.map((f) => f.message) },
    };
  },
};

export const TARGETS: readonly FuzzTarget[] = [
  datasetTarget('jsonl'),
  datasetTarget('json'),
  datasetTarget('csv'),
  datasetTarget('parquet'),
  rolloutsTarget,
  jobFileTarget,
  trustPolicyTarget,
  agentLintTarget,
];

export function targetNamed(name: string): FuzzTarget {
  const target = TARGETS.find((t) => t.name === name);
  if (!target) throw new Error(`No fuzz target ${name}; the targets are ${TARGETS.map((t) => t.name).join(', ')}.`);
  return target;
}
