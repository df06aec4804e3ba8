import { mlflowConfigOf } from '../core/jobs/document';
import type { ServiceOutput } from '../core/jobs/serviceOutput';
import { checkpointsOf } from './checkpoints';
import type { Job, JobState, Secondary, Transition } from './jobModel';
import { recordedState } from './recordedJob';

/** Per-rollout token averages of the published reference run. */
export const TOKENS_PER_ROLLOUT = { prefill: 4660, sample: 1514, train: 6099 };

const MESSAGES: Partial<Record<Secondary, string>> = {
  Starting: 'Preparing the instances for training',
  Downloading: 'Downloading the datasets',
  Training: 'Training: running rollouts and updating the adapter',
  Evaluating: 'Evaluating: running rollouts',
  Uploading: 'Uploading the adapter and metrics',
  Completed: 'Job completed',
  Stopping: 'Stopping the job',
  Stopped: 'Job stopped',
};

/** When rollout k (0-based, across steps) finishes: spread evenly inside its step. */
export function rolloutTime(job: Job, k: number): number {
  const p = job.plan;
  const step = Math.floor(k / p.rolloutsPerStep);
  const j = k % p.rolloutsPerStep;
  const paused = p.pause && step >= p.pause.afterStep ? p.pause.ms : 0;
  return rolloutPhaseStart(job) + step * p.stepMs + paused + Math.floor(((j + 1) * p.stepMs) / (p.rolloutsPerStep + 1));
}

export function rolloutPhaseStart(job: Job): number {
  return job.created + job.plan.startingMs + job.plan.downloadingMs;
}

/** Rollouts finished by time t: inverse of rolloutTime. */
function rolloutsBy(job: Job, t: number): number {
  const p = job.plan;
  const total = p.steps * p.rolloutsPerStep;
  let elapsed = t - rolloutPhaseStart(job);
  if (elapsed <= 0) return 0;
  // Inside a pause nothing finishes; after it, time runs as if the pause had not been.
  const pausedAt = p.pause ? p.pause.afterStep * p.stepMs : Infinity;
  if (p.pause && elapsed >= pausedAt) elapsed = elapsed < pausedAt + p.pause.ms ? pausedAt : elapsed - p.pause.ms;
  const step = Math.floor(elapsed / p.stepMs);
  if (step >= p.steps) return total;
  const within = elapsed - step * p.stepMs;
  const j = Math.min(p.rolloutsPerStep, Math.floor(((within + 1) * (p.rolloutsPerStep + 1)) / p.stepMs));
  let k = step * p.rolloutsPerStep + j;
  // Integer rounding: trust rolloutTime as the definition.
  while (k > 0 && rolloutTime(job, k - 1) > t) k--;
  while (k < total && rolloutTime(job, k) <= t) k++;
  return k;
}

/** The job's status at time t, computed from its plan: no timers, so a manual clock moves it instantly. */
export function jobState(job: Job, t: number): JobState {
  if (job.recorded) return recordedState(job, job.recorded, t);
  const p = job.plan;
  const work: Secondary = job.category === 'AgentRFT' ? 'Training' : 'Evaluating';
  const phases: [Secondary, number][] = [
    ['Starting', p.startingMs],
    ['Downloading', p.downloadingMs],
    [work, p.steps * p.stepMs + (p.pause?.ms ?? 0)],
    ['Uploading', p.uploadingMs],
  ];
  const failAt = p.failure ? job.created + p.failure.afterMs : Infinity;
  const stopAt = job.stoppedAt ?? Infinity;
  const end = Math.min(t, failAt, stopAt);
  const transitions: Transition[] = [];
  // Phases begun by `end`: a job is Completed only once it has gone through every one.
  let begun = 0;
  let at = job.created;
  for (const [status, length] of phases) {
    if (at > end || (at === end && transitions.length > 0)) break;
    begun++;
    transitions.push({ Status: status, StartTime: at, StatusMessage: MESSAGES[status] });
    at += length;
    if (at <= end) transitions[transitions.length - 1].EndTime = at;
  }
  const totalRollouts = p.steps * p.rolloutsPerStep;
  const completedRollouts = rolloutsBy(job, end);
  const state: JobState = {
    status: 'InProgress',
    secondary: transitions[transitions.length - 1]?.Status ?? 'Starting',
    transitions,
    lastModified: transitions[transitions.length - 1]?.StartTime ?? job.created,
    completedRollouts,
    totalRollouts,
    rolloutStart: rolloutPhaseStart(job),
  };
  const close = (time: number) => {
    const last = transitions[transitions.length - 1];
    if (last && last.EndTime === undefined) last.EndTime = time;
  };
  if (failAt <= t && failAt <= stopAt) {
    close(failAt);
    transitions.push({ Status: 'Failed', StartTime: failAt, EndTime: failAt, StatusMessage: p.failure?.reason });
    return { ...state, status: 'Failed', secondary: 'Failed', lastModified: failAt, endTime: failAt, failureReason: p.failure?.reason };
  }
  // A stop at the very millisecond a phase ends stops the job too, unless that phase was the last (it completed).
  if (stopAt <= t && (stopAt < at || begun < phases.length)) {
    close(stopAt);
    const stopped = stopAt + p.stoppingMs;
    transitions.push({
      Status: 'Stopping',
      StartTime: stopAt,
      StatusMessage: MESSAGES.Stopping,
      ...(stopped <= t ? { EndTime: stopped } : {}),
    });
    if (stopped > t) return { ...state, status: 'Stopping', secondary: 'Stopping', lastModified: stopAt };
    transitions.push({ Status: 'Stopped', StartTime: stopped, EndTime: stopped, StatusMessage: MESSAGES.Stopped });
    return { ...state, status: 'Stopped', secondary: 'Stopped', lastModified: stopped, endTime: stopped };
  }
  if (begun === phases.length && at <= t) {
    transitions.push({ Status: 'Completed', StartTime: at, EndTime: at, StatusMessage: MESSAGES.Completed });
    return { ...state, status: 'Completed', secondary: 'Completed', lastModified: at, endTime: at };
  }
  return state;
}

/** What DescribeJob adds to the document: fields appear as the job reaches them. */
export function serviceOutput(job: Job, state: JobState, evaluationMetrics?: () => Record<string, number>): ServiceOutput {
  const out: ServiceOutput = {};
  const p = job.plan;
  const mlflow = mlflowRunOf(job);
  if (mlflow)
    out.MlflowDetails = {
      ExperimentName: mlflow.experimentName,
      RunName: mlflow.runName,
      ExperimentId: mlflow.experimentId,
      RunId: mlflow.runId,
    };
  const started = state.transitions.some((t) => t.Status === 'Training' || t.Status === 'Evaluating');
  if (started) {
    const done = state.completedRollouts;
    // Steps count from the start of training: a resumed job's first step is the one after its checkpoint.
    const first = p.firstStep ?? 0;
    const step = first + Math.floor(done / p.rolloutsPerStep);
    if (job.category === 'AgentRFT') {
      out.ProgressInfo = p.limitedBySteps
        ? { MaxSteps: first + p.steps, CurrentStep: step }
        : {
            MaxEpoch: p.maxEpochs,
            StepsPerEpoch: p.stepsPerEpoch,
            CurrentEpoch: Math.min(p.maxEpochs, Math.floor(step / p.stepsPerEpoch) + (step % p.stepsPerEpoch || step === 0 ? 1 : 0)),
            CurrentStep: step,
          };
    }
    out.RolloutInfo = { Total: state.totalRollouts, Completed: done };
    out.BillableTokenUsage = {
      ...(job.category === 'AgentRFT' ? { TrainTokenCount: done * TOKENS_PER_ROLLOUT.train } : {}),
      PrefillTokenCount: done * TOKENS_PER_ROLLOUT.prefill,
      SampleTokenCount: done * TOKENS_PER_ROLLOUT.sample,
    };
  }
  Object.assign(out, checkpointsOf(job, state));
  if (job.recorded && started) {
    out.ProgressInfo = job.recorded.progress;
    out.RolloutInfo = job.recorded.rollouts;
    out.BillableTokenUsage = job.recorded.tokens;
  }
  if (state.status === 'Completed' && job.category === 'AgentRFT') {
    out.OutputModelPackageArn = `arn:aws:sagemaker:${job.region}:${job.arn.split(':')[4]}:model-package/${job.name}-adapter/1`;
  }
  // No real output shows EvaluationMetrics (its results are in the MLflow run): the SDK pipeline's jobs go without, as real ones do.
  if (state.status === 'Completed' && job.category === 'AgentRFTEvaluation' && evaluationMetrics && !job.name.startsWith('pipelines-'))
    out.EvaluationMetrics = evaluationMetrics();
  return out;
}

/** The MLflow run a job logs to: its resource, experiment (one id per name and resource) and run id; undefined without MlflowConfig. */
export function mlflowRunOf(
  job: Job,
): { resourceArn: string; experimentName: string; experimentId: string; runName: string; runId: string } | undefined {
  const config = mlflowConfigOf(job.document);
  if (!config?.MlflowResourceArn) return undefined;
  const experimentName = config.MlflowExperimentName ?? 'mtrl';
  return {
    resourceArn: config.MlflowResourceArn,
    experimentName,
    experimentId: mlflowExperimentId(config.MlflowResourceArn, experimentName),
    runName: config.MlflowRunName ?? job.name,
    runId: hash(job.arn).toString(16).padStart(8, '0').repeat(4),
  };
}

export function mlflowExperimentId(resourceArn: string, experimentName: string): string {
  return String(hash(`${resourceArn}#${experimentName}`) % 1_000_000);
}

function hash(text: string): number {
  let h = 0;
  for (let i = 0; i < text.length; i++) h = (Math.imul(h, 31) + text.charCodeAt(i)) | 0;
  return h >>> 0;
}
