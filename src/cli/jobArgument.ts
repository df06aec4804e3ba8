import { parseJobArn, type JobRef } from '../core/jobs/reference';
import { regionFrom } from './awsOptions';
import { UsageError } from './command';

/** The job a command's argument names: a job ARN, or a name (an evaluation job with --evaluation, else a training job), with its region. */
export function jobFromArgument(text: string, values: { evaluation?: boolean; region?: string }): JobRef & { region: string } {
  const arn = parseJobArn(text);
  if (text.startsWith('arn:') && !arn)
    throw new UsageError(`"${text}" is not a job ARN (arn:aws:sagemaker:<region>:<account>:job/<AgentRFT|AgentRFTEvaluation>/<name>).`);
  return {
    jobName: arn?.jobName ?? text,
    category: arn?.category ?? (values.evaluation ? 'AgentRFTEvaluation' : 'AgentRFT'),
    region: arn?.region ?? regionFrom(values),
  };
}
