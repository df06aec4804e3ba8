import { buildEvaluationDocument, type JobConfigDocument } from '../jobs/document';
import { CONFIRM_COST_DOLLARS, runCount, sweepLimitProblems } from './sweepLimits';

/** The decoding settings a sweep varies: evaluation hyperparameters by their flat names. */
export const GRID_KEYS = ['temperature', 'sampling_top_p', 'sampling_max_tokens', 'eval_group_size', 'pass_k_values'] as const;
type GridKey = (typeof GRID_KEYS)[number];

/** A model column: the base model, or the adapter a completed training job produced. */
interface SweepModel {
  label: string;
  /** Name of a completed training job whose adapter is evaluated; absent for the base model. */
  trainingJob?: string;
}

/** Reasoning effort is the runtime's REASONING_EFFORT, not a job parameter: one deployed runtime per effort. */
interface SweepRuntime {
  label: string;
  runtimeArn: string;
}

/** A `*.mtrl-sweep.json` file. */
export interface Sweep {
  name: string;
  region: string;
  roleArn: string;
  baseModelArn: string;
  evaluationUri: string;
  outputPath: string;
  mlflowArn?: string;
  experimentName?: string;
  models: SweepModel[];
  runtimes: SweepRuntime[];
  /** Each key's values are crossed with every other's; a key left out keeps the evaluation default. */
  grid: Partial<Record<GridKey, string[]>>;
  /** Evaluation hyperparameters every run shares. */
  hyperparameters?: Record<string, string>;
}

/** One evaluation of a sweep: a model, a runtime and one point of the grid, with the job name derived from them. */
export interface SweepRun {
  jobName: string;
  model: SweepModel;
  runtime: SweepRuntime;
  /** The grid point, e.g. { temperature: '1.0', sampling_top_p: '0.9' }. */
  settings: Record<string, string>;
  /** The row it belongs to in the comparison: runtime label and grid point. */
  settingsLabel: string;
}

interface SweepProblem {
  message: string;
  key?: string;
}

const NAME = /^[a-zA-Z0-9](-*[a-zA-Z0-9]){0,62}$/;

/** Parses and checks a sweep file's text; every problem is a sentence naming the key. */
export function parseSweep(text: string): { sweep: Sweep; problems: [] } | { sweep?: undefined; problems: SweepProblem[] } {
  let value: unknown;
  try {
    value = JSON.parse(text);
  } catch (error) {
    return { problems: [{ message: `Not valid JSON: ${(error as Error).message}` }] };
  }
  if (!value || typeof value !== 'object' || Array.isArray(value)) return { problems: [{ message: 'A sweep file is a JSON object.' }] };
  const v = value as Record<string, unknown>;
  const problems: SweepProblem[] = [];
  const text_ = (key: string) => typeof v[key] === 'string' && (v[key] as string) !== '';
  for (const key of ['name', 'region', 'roleArn', 'baseModelArn', 'evaluationUri', 'outputPath']) {
    if (!text_(key)) problems.push({ message: `${key} must be a non-empty string.`, key });
  }
  if (text_('name') && !/^[a-zA-Z0-9](-*[a-zA-Z0-9]){0,39}$/.test(v.name as string)) {
    problems.push({ message: 'name must be 1–40 letters, digits and hyphens (job names are derived from it).', key: 'name' });
  }
  const models = Array.isArray(v.models) ? (v.models as SweepModel[]) : [];
  if (models.length === 0)
    problems.push({
      message: 'models must list at least one model: { "label": "base" } or { "label": "…", "trainingJob": "<job name>" }.',
      key: 'models',
    });
  for (const m of models) {
    if (!m || typeof m.label !== 'string' || !m.label) problems.push({ message: 'Every model needs a label.', key: 'models' });
    else if (m.trainingJob !== undefined && (typeof m.trainingJob !== 'string' || !NAME.test(m.trainingJob)))
      problems.push({ message: `Model ${m.label}: trainingJob must be a training job's name.`, key: 'models' });
  }
  const runtimes = Array.isArray(v.runtimes) ? (v.runtimes as SweepRuntime[]) : [];
  if (runtimes.length === 0)
    problems.push({
      message: 'runtimes must list at least one agent runtime: { "label": "medium", "runtimeArn": "arn:…:runtime/…" }.',
      key: 'runtimes',
    });
  for (const r of runtimes) {
    if (!r || typeof r.label !== 'string' || !r.label || typeof r.runtimeArn !== 'string' || !/:runtime\//.test(r.runtimeArn)) {
      problems.push({
        message: 'Every runtime needs a label and a runtimeArn (arn:aws:bedrock-agentcore:<region>:<account>:runtime/<id>).',
        key: 'runtimes',
      });
    }
  }
  for (const [kind, list] of [
    ['model', models],
    ['runtime', runtimes],
  ] as const) {
    const labels = list.map((x) => x?.label);
    const twice = labels.find((label, i) => labels.indexOf(label) !== i);
    if (twice)
      problems.push({ message: `Two ${kind}s are labelled "${twice}"; labels name the comparison's rows and columns.`, key: `${kind}s` });
  }
  const grid = v.grid ?? {};
  if (typeof grid !== 'object' || Array.isArray(grid))
    problems.push({ message: 'grid must be an object of lists, e.g. { "temperature": ["1.0", "0.6"] }.', key: 'grid' });
  else {
    for (const [key, values] of Object.entries(grid)) {
      if (!(GRID_KEYS as readonly string[]).includes(key))
        problems.push({ message: `grid.${key} is not a decoding setting; use ${GRID_KEYS.join(', ')}.`, key: 'grid' });
      else if (!Array.isArray(values) || values.length === 0 || !values.every((x) => typeof x === 'string' && x !== '')) {
        problems.push({ message: `grid.${key} must be a non-empty list of strings (hyperparameter values are strings).`, key: 'grid' });
      }
    }
  }
  problems.push(...sweepLimitProblems(v));
  for (const key of Object.keys(v)) {
    if (![...SWEEP_KEYS, '$schema'].includes(key))
      problems.push({ message: `Unknown key ${key}; a sweep file holds ${SWEEP_KEYS.join(', ')}.`, key });
  }
  if (problems.length) return { problems };
  return { sweep: { ...(v as unknown as Sweep), grid: grid as Sweep['grid'] }, problems: [] };
}

const SWEEP_KEYS = [
  'name',
  'region',
  'roleArn',
  'baseModelArn',
  'evaluationUri',
  'outputPath',
  'mlflowArn',
  'experimentName',
  'models',
  'runtimes',
  'grid',
  'hyperparameters',
];

/** Every grid point, keys in GRID_KEYS order so labels and names never depend on the file's key order. */
export function gridPoints(grid: Sweep['grid']): Record<string, string>[] {
  let points: Record<string, string>[] = [{}];
  for (const key of GRID_KEYS) {
    const values = grid[key];
    if (!values?.length) continue;
    points = points.flatMap((point) => values.map((value) => ({ ...point, [key]: value })));
  }
  return points;
}

/** 32-bit FNV-1a, as 8 hex digits: short, stable job-name suffixes. */
function fnv1a(text: string): string {
  let hash = 0x811c9dc5;
  for (let i = 0; i < text.length; i++) hash = Math.imul(hash ^ text.charCodeAt(i), 0x01000193) >>> 0;
  return hash.toString(16).padStart(8, '0');
}

/** `temperature=1.0 top_p=0.9` for a grid point, with the runtime's label in front. */
function settingsLabel(runtime: SweepRuntime, settings: Record<string, string>): string {
  const parts = Object.entries(settings).map(([key, value]) => `${key.replace(/^sampling_/, '')}=${value}`);
  return [runtime.label, ...parts].join(' ');
}

/**
 * The sweep's runs, model by model inside each setting. Job names are derived from the sweep name and what the run is,
 * never from its position, so the queue finds its own jobs again after a reload and never launches one twice.
 */
export function sweepRuns(sweep: Sweep): SweepRun[] {
  const runs: SweepRun[] = [];
  for (const runtime of sweep.runtimes) {
    for (const settings of gridPoints(sweep.grid)) {
      for (const model of sweep.models) {
        const key = JSON.stringify([model.label, model.trainingJob ?? '', runtime.label, runtime.runtimeArn, settings]);
        runs.push({ jobName: `${sweep.name}-${fnv1a(key)}`, model, runtime, settings, settingsLabel: settingsLabel(runtime, settings) });
      }
    }
  }
  return runs;
}

/** The evaluation document of one run; `adapterArn` is the training job's output model package (absent for the base model). */
export function runDocument(sweep: Sweep, run: SweepRun, adapterArn: string | undefined): JobConfigDocument {
  return buildEvaluationDocument({
    runtimeArn: run.runtime.runtimeArn,
    evaluationUri: sweep.evaluationUri,
    outputPath: sweep.outputPath,
    baseModelArn: sweep.baseModelArn,
    mlflowArn: sweep.mlflowArn,
    experimentName: sweep.experimentName,
    runName: run.jobName,
    hyperparameters: { ...sweep.hyperparameters, ...run.settings },
    adapterModelPackageArn: adapterArn,
  });
}

/** The write-up's evaluation of 128 words: about an hour and about $1.20 in tokens, at group size 1. */
const HOURS_PER_RUN = 1;
const DOLLARS_PER_RUN = 1.2;

interface SweepEstimate {
  runs: number;
  /** One evaluation at a time per account, so the hours add up. */
  hours: number;
  cost: [low: number, high: number];
}

/** What a sweep will take before it is launched: scaled by group size from the write-up's one evaluation, ±50 % for words, models and tokens. */
export function sweepEstimate(sweep: Sweep): SweepEstimate {
  // Counted from the lists, not by listing the runs: the lens asks on every edit.
  const runs = runCount(sweep);
  const groupSize = (value: string | undefined) => Math.max(1, Number(value ?? 1) || 1);
  const sizes = sweep.grid.eval_group_size ?? [sweep.hyperparameters?.eval_group_size];
  const meanGroup = sizes.reduce((sum, size) => sum + groupSize(size), 0) / sizes.length;
  const scale = runs * meanGroup;
  return { runs, hours: scale * HOURS_PER_RUN, cost: [scale * DOLLARS_PER_RUN * 0.5, scale * DOLLARS_PER_RUN * 1.5] };
}

/** The question to ask before starting a sweep whose estimate reaches CONFIRM_COST_DOLLARS, or undefined below it. */
export function costConfirmation(sweep: Sweep): string | undefined {
  const estimate = sweepEstimate(sweep);
  if (estimate.cost[1] < CONFIRM_COST_DOLLARS) return undefined;
  return `Start sweep ${sweep.name}? ${estimateText(estimate)}: above the $${CONFIRM_COST_DOLLARS} that needs a confirmation.`;
}

export function estimateText(e: SweepEstimate): string {
  return `${e.runs} evaluation${e.runs === 1 ? '' : 's'}, one at a time: about ${e.hours} h, $${e.cost[0].toFixed(2)}–$${e.cost[1].toFixed(2)} in tokens`;
}
