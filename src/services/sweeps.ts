import type { AwsClients } from '../aws/clients';
import { createJob, describeJob, listJobs } from '../aws/sagemaker';
import { comparisonFromJobs } from './evaluations';
import { nextStep, sweepProgress, type QueueDecision, type RunJob, type SweepControl, type SweepProgress } from '../core/evaluation/queue';
import { comparisonGrid } from '../core/evaluation/grid';
import { runDocument, sweepRuns, type Sweep, type SweepRun } from '../core/evaluation/sweep';
import { costOf, modelIdOf, type BillableTokenUsage, type PricingTable } from '../core/jobs/pricing';
import { JOB_CONFIG_SCHEMA_VERSION } from '../core/jobs/jobfile';

/** The sweep wizard's last answers, kept per workspace as the next run's defaults (read by the stores, written by the wizard). */
export type SweepAnswers = Partial<Pick<Sweep, 'evaluationUri' | 'outputPath' | 'roleArn' | 'baseModelArn'>>;

/** A sweep as the service sees it now: which of its jobs exist, and whether another evaluation holds the account's one slot. */
export interface SweepState {
  /** Token cost so far of the sweep's jobs (BillableTokenUsage × prices), when asked for. */
  cost?: number;
  runs: SweepRun[];
  jobs: Map<string, RunJob>;
  runningElsewhere?: string;
  progress: SweepProgress;
}

/** Reads the sweep's jobs from the service (ListJobs by the sweep's name prefix): the queue keeps no state of its own but the user's pause and cancel. */
export async function readSweepState(aws: AwsClients, sweep: Sweep, signal?: AbortSignal): Promise<SweepState> {
  const client = aws.sagemaker(sweep.region);
  const runs = sweepRuns(sweep);
  const names = new Set(runs.map((r) => r.jobName));
  const jobs = new Map<string, RunJob>();
  for await (const job of listJobs(client, { JobCategory: 'AgentRFTEvaluation', NameContains: sweep.name }, signal)) {
    if (job.JobName && names.has(job.JobName)) jobs.set(job.JobName, { status: job.JobStatus ?? 'InProgress' });
  }
  let runningElsewhere: string | undefined;
  for await (const job of listJobs(client, { JobCategory: 'AgentRFTEvaluation', StatusEquals: 'InProgress' }, signal)) {
    if (job.JobName && !names.has(job.JobName)) {
      runningElsewhere = job.JobName;
      break;
    }
  }
  return { runs, jobs, runningElsewhere, progress: sweepProgress(runs, jobs) };
}

/** The adapter a completed training job produced; a sentence naming the job when it has none yet. */
async function adapterOf(aws: AwsClients, region: string, trainingJob: string, signal?: AbortSignal): Promise<string> {
  const job = await describeJob(aws.sagemaker(region), { jobName: trainingJob, category: 'AgentRFT' }, signal);
  const arn = (job.config?.ServiceOutput as { OutputModelPackageArn?: string } | undefined)?.OutputModelPackageArn;
  if (job.JobStatus !== 'Completed' || !arn) {
    throw new Error(`Training job ${trainingJob} is ${job.JobStatus ?? 'unknown'}: its adapter can be evaluated once it has completed.`);
  }
  return arn;
}

interface AdvanceResult {
  decision: QueueDecision;
  state: SweepState;
  /** The job launched by this call, if any. */
  launched?: string;
}

const ALREADY_EXISTS = /ResourceInUse|Conflict|already exists/i;

/**
 * One turn of the queue: read the service, launch the next run when the account's evaluation slot is free. Safe to call
 * from several windows or after a reload: a run whose job exists is never launched, and a name taken meanwhile is not an error.
 */
export async function advanceSweep(aws: AwsClients, sweep: Sweep, control: SweepControl, signal?: AbortSignal): Promise<AdvanceResult> {
  const state = await readSweepState(aws, sweep, signal);
  const decision = nextStep(state.runs, state.jobs, control, state.runningElsewhere);
  if (decision.kind !== 'launch') return { decision, state };
  const { run } = decision;
  const adapter = run.model.trainingJob ? await adapterOf(aws, sweep.region, run.model.trainingJob, signal) : undefined;
  try {
    await createJob(
      aws.sagemaker(sweep.region),
      {
        JobName: run.jobName,
        JobCategory: 'AgentRFTEvaluation',
        RoleArn: sweep.roleArn,
        JobConfigSchemaVersion: JOB_CONFIG_SCHEMA_VERSION,
        JobConfigDocument: JSON.stringify(runDocument(sweep, run, adapter)),
        Tags: [
          { Key: 'mtrl:sweep', Value: sweep.name },
          { Key: 'mtrl:model', Value: run.model.label },
        ],
      },
      signal,
    );
  } catch (error) {
    if (!ALREADY_EXISTS.test(`${(error as Error).name} ${(error as Error).message}`)) throw error;
  }
  state.jobs.set(run.jobName, { status: 'InProgress' });
  return { decision, state: { ...state, progress: sweepProgress(state.runs, state.jobs) }, launched: run.jobName };
}

/** The sweep's completed runs as a comparison: rows are settings, columns models. */
export async function sweepComparison(aws: AwsClients, sweep: Sweep, pricing: PricingTable, signal?: AbortSignal) {
  const state = await readSweepState(aws, sweep, signal);
  const done = state.runs.filter((r) => state.jobs.get(r.jobName)?.status === 'Completed');
  const comparison = await comparisonFromJobs(
    aws,
    sweep.region,
    done.map((r) => r.jobName),
    pricing,
    signal,
  );
  const cells = done.flatMap((run) => {
    const result = comparison.results.find((r) => r.job === run.jobName);
    return result ? [{ row: run.settingsLabel, column: run.model.label, result }] : [];
  });
  return { state, comparison, grid: comparisonGrid(cells, sweep.models.find((m) => !m.trainingJob)?.label) };
}

/** The token cost so far of the sweep's jobs, done and running (one DescribeJob each, a few at a time). */
export async function sweepCost(
  aws: AwsClients,
  sweep: Sweep,
  state: SweepState,
  pricing: PricingTable,
  signal?: AbortSignal,
): Promise<number> {
  const names = state.runs.filter((r) => state.jobs.has(r.jobName)).map((r) => r.jobName);
  let total = 0;
  let next = 0;
  const worker = async () => {
    while (next < names.length) {
      const job = await describeJob(aws.sagemaker(sweep.region), { jobName: names[next++], category: 'AgentRFTEvaluation' }, signal);
      const doc = job.config as
        { EvaluationConfig?: { BaseModelArn?: string }; ServiceOutput?: { BillableTokenUsage?: BillableTokenUsage } } | undefined;
      total += costOf(doc?.ServiceOutput?.BillableTokenUsage, pricing[modelIdOf(doc?.EvaluationConfig?.BaseModelArn) ?? ''])?.total ?? 0;
    }
  };
  await Promise.all(Array.from({ length: Math.min(4, names.length) }, worker));
  return total;
}
