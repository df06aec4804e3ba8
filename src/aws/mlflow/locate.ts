import type { MlflowConfig, MlflowDetails } from '../../core/metrics/mlflow';

/** What locating needs of a run; the MlflowClient returns whole runs. */
export interface FoundRun {
  info: { run_id: string; experiment_id: string };
}

/** The three MLflow calls finding a run needs; the MlflowClient has them, tests may count them. */
export interface RunFinder<R extends FoundRun = FoundRun> {
  getRun(runId: string, signal?: AbortSignal): Promise<R>;
  experimentByName(name: string, signal?: AbortSignal): Promise<{ experiment_id: string } | undefined>;
  searchRuns(experimentIds: string[], filter: string, signal?: AbortSignal): Promise<R[]>;
}

interface LocatedRun<R extends FoundRun = FoundRun> {
  runId: string;
  experimentId: string;
  /** The run as found (with its latest metrics): no second runs/get needed. */
  run: R;
  /** How it was found, for the output channel. */
  via: 'run id' | 'run name';
}

/** Why no run could be found, as a sentence naming the fix. */
export class RunNotFound extends Error {}

function quoted(text: string): string {
  return `'${text.replace(/\\/g, '\\\\').replace(/'/g, "\\'")}'`;
}

/**
 * The job's MLflow run: `ServiceOutput.MlflowDetails.RunId` when the service reported it, else the experiment by name
 * and the newest run named after MlflowRunName / the job (the SDK's tag filter, then the sample's attribute filter).
 */
export async function locateRun<R extends FoundRun>(
  finder: RunFinder<R>,
  jobName: string,
  config: MlflowConfig,
  details: MlflowDetails | undefined,
  signal?: AbortSignal,
): Promise<LocatedRun<R>> {
  if (details?.RunId) {
    const run = await finder.getRun(details.RunId, signal);
    return { runId: run.info.run_id, experimentId: run.info.experiment_id, run, via: 'run id' };
  }
  const experimentName = details?.ExperimentName ?? config.MlflowExperimentName;
  if (!experimentName)
    throw new RunNotFound(
      `The job ${jobName} names no MLflow experiment and the service has not reported its run yet: wait until the job is training, or set MlflowConfig.MlflowExperimentName in the job file.`,
    );
  const experiment = await finder.experimentByName(experimentName, signal);
  if (!experiment)
    throw new RunNotFound(
      `MLflow has no experiment '${experimentName}' yet: the job creates it when it starts training. Try again once the job is in the Training phase.`,
    );
  const runName = details?.RunName ?? config.MlflowRunName ?? jobName;
  for (const filter of [`tags.mlflow.runName = ${quoted(runName)}`, `attributes.run_name = ${quoted(runName)}`]) {
    const [run] = await finder.searchRuns([experiment.experiment_id], filter, signal);
    if (run) return { runId: run.info.run_id, experimentId: run.info.experiment_id, run, via: 'run name' };
  }
  throw new RunNotFound(
    `The MLflow experiment '${experimentName}' has no run named '${runName}' yet: the job starts its run when training begins. Try again in a few minutes.`,
  );
}
