import { isFields } from '../text/json';
// What a sweep file may ask for, checked from its lists alone: a few hundred bytes of grid must not expand to a million
// runs (or a cost nobody meant) before anything says so.

/** Runs one sweep file may make: a thousand evaluations, one at a time, is already weeks of the account's slot. */
export const MAX_SWEEP_RUNS = 1_000;

/** An estimate above this many dollars (its high end) asks for a confirmation naming it before the sweep starts. */
export const CONFIRM_COST_DOLLARS = 100;

const REGION = /^[a-z]{2}(-gov|-iso[a-z]?)?-[a-z]+-\d$/;
const ARN_REGION = /^arn:[a-z-]+:[a-z0-9-]+:([a-z0-9-]*):/;

interface Problem {
  message: string;
  key?: string;
}

const lengthOf = (value: unknown) => (Array.isArray(value) ? value.length : 0);

/** The runs a sweep file makes (models × runtimes × grid points), counted without listing them. */
export function runCount(file: { models?: unknown; runtimes?: unknown; grid?: unknown }): number {
  const grid = file.grid && typeof file.grid === 'object' ? Object.values(file.grid as Record<string, unknown>) : [];
  return grid.reduce<number>((n, values) => n * Math.max(1, lengthOf(values)), lengthOf(file.models) * lengthOf(file.runtimes));
}

/** The region named in an ARN, when it names one (IAM and S3 ARNs do not). */
function regionOf(arn: unknown): string | undefined {
  return typeof arn === 'string' ? ARN_REGION.exec(arn)?.[1] || undefined : undefined;
}

/** Problems beyond the file's shape: too many runs, a value twice in a grid list, hyperparameters not an object of strings, resources in another region. */
export function sweepLimitProblems(v: Record<string, unknown>): Problem[] {
  const problems: Problem[] = [];
  const runs = runCount(v);
  if (runs > MAX_SWEEP_RUNS)
    problems.push({
      message: `The sweep makes ${runs.toLocaleString('en-US')} runs; a sweep file may make at most ${MAX_SWEEP_RUNS.toLocaleString('en-US')}. Split it, or shorten the grid lists.`,
      key: 'grid',
    });
  if (isFields(v.grid)) {
    for (const [key, values] of Object.entries(v.grid)) {
      if (!Array.isArray(values)) continue;
      const twice = values.find((value, i) => values.indexOf(value) !== i);
      if (twice !== undefined)
        problems.push({ message: `grid.${key} lists "${String(twice)}" twice: two runs would share one job name.`, key: 'grid' });
    }
  }
  const hp = v.hyperparameters;
  if (
    hp !== undefined &&
    (typeof hp !== 'object' || hp === null || Array.isArray(hp) || !Object.values(hp).every((x) => typeof x === 'string'))
  )
    problems.push({ message: 'hyperparameters must be an object of strings, e.g. { "max_turns": "6" }.', key: 'hyperparameters' });
  if (typeof v.region === 'string' && v.region && !REGION.test(v.region))
    problems.push({ message: `region "${v.region}" is not an AWS region name such as us-east-1.`, key: 'region' });
  else if (typeof v.region === 'string') {
    const elsewhere: [string, unknown][] = [
      ['baseModelArn', v.baseModelArn],
      ['mlflowArn', v.mlflowArn],
      ...(Array.isArray(v.runtimes)
        ? v.runtimes.map((r, i): [string, unknown] => [`runtimes[${i}].runtimeArn`, (r as { runtimeArn?: unknown })?.runtimeArn])
        : []),
    ];
    for (const [key, arn] of elsewhere) {
      const region = regionOf(arn);
      if (region && region !== v.region)
        problems.push({
          message: `${key} is in ${region}, but the sweep runs in ${v.region}: a job uses resources of its own region.`,
          key: key.split('[')[0],
        });
    }
  }
  return problems;
}
