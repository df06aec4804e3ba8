// The SageMaker Job Runtime as published (service model `sagemakerjobruntime`, API 2026-02-01, rest-json): four
// operations at the base URL, OpenAI-compatible chat completions under `/v1`, rollouts named by two headers.

/** Names the job of a Sample call and of CompleteRollout / UpdateReward (the SDK's `rft/headers.py` sends it on every model call). */
export const JOB_ARN_HEADER = 'x-amzn-sagemaker-job-arn';
/** Names the rollout (trajectory) of a model call. */
export const TRAJECTORY_HEADER = 'x-amzn-sagemaker-trajectory-id';

export type JobRuntimeOperation = 'Sample' | 'SampleWithResponseStream' | 'CompleteRollout' | 'UpdateReward';

/** Each operation's path below the base URL (`metadata.endpoint`). */
export const OPERATION_PATHS: Readonly<Record<string, JobRuntimeOperation>> = {
  '/sample': 'Sample',
  '/sample-with-response-stream': 'SampleWithResponseStream',
  '/complete-rollout': 'CompleteRollout',
  '/update-reward': 'UpdateReward',
};

/** Chat completions and the model list, below the base URL: the service serves them under `/v1` only. */
export const CHAT_PATH = '/v1/chat/completions';
export const MODELS_PATH = '/v1/models';

/** The service model's errors and their HTTP status. */
export const JOB_RUNTIME_ERRORS = {
  ValidationException: 400,
  ServiceQuotaExceededException: 402,
  AccessDeniedException: 403,
  ResourceNotFoundException: 404,
  ConflictException: 409,
  ThrottlingException: 429,
  InternalServiceError: 500,
} as const;

export type JobRuntimeErrorCode = keyof typeof JOB_RUNTIME_ERRORS;

/** The service's answer to a call naming a job it does not run (a 400, as the smoke test of a deployed agent sees it). */
export const couldNotFindJob = (jobArn: string | undefined): string => `Could not find job ${jobArn ?? ''}`.trim();

/** A job ARN of the form the service puts in a payload: `arn:aws:sagemaker:<region>:<account>:job/AgentRFT/<name>`. */
export const agentRftJobArn = (region: string, account: string, name: string): string =>
  `arn:aws:sagemaker:${region}:${account}:job/AgentRFT/${name}`;

/** One header's value (Node lower-cases names; a repeated header counts once). */
export function headerValue(headers: Record<string, string | string[] | undefined>, name: string): string | undefined {
  const value = headers[name];
  const text = (Array.isArray(value) ? value[0] : value)?.trim();
  return text ? text : undefined;
}

/** The operation at a path below the base URL; the SDK's calls are taken under `/v1` too (an RFT_RUNTIME_ENDPOINT ending in /v1). */
export function operationAt(path: string): JobRuntimeOperation | undefined {
  return OPERATION_PATHS[path] ?? OPERATION_PATHS[path.replace(/^\/v1(?=\/)/, '')];
}
