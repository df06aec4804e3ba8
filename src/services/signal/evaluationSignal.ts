import type { AwsClients } from '../../aws/clients';
import type { JobDescription } from '../../aws/sagemaker';
import { tokensPerRolloutOf } from '../../core/jobs/estimate';
import { signalReport, type SignalReport } from '../../core/signal/report';
import { jobReader, readRollouts } from '../rollouts';

/** What a finished evaluation job says of the learning signal. */
export interface EvaluationSignal {
  /** Its rollouts' report, at the job's own success threshold. */
  report: SignalReport;
  rollouts: number;
  /** Its billable tokens per rollout, when the job reported them. */
  tokens: ReturnType<typeof tokensPerRolloutOf>;
}

/** The report of an evaluation job's rollouts (read as `mtrl signal --job` reads them) and its tokens per rollout. */
export async function evaluationSignal(
  aws: AwsClients,
  job: Parameters<typeof jobReader>[1],
  described: JobDescription,
  signal: AbortSignal,
  options: { tokensSource: string; onTraceLimit?: (limit: number) => void },
): Promise<EvaluationSignal> {
  const judged: { successThreshold?: number } = {};
  const rollouts = await readRollouts(await jobReader(aws, job, signal, 'best', options.onTraceLimit), signal, {}, undefined, judged);
  const output = described.config?.ServiceOutput;
  return {
    report: signalReport(rollouts, judged.successThreshold),
    rollouts: rollouts.length,
    tokens: tokensPerRolloutOf(
      output?.BillableTokenUsage,
      output?.RolloutInfo?.Completed ?? output?.RolloutInfo?.Total,
      options.tokensSource,
    ),
  };
}
