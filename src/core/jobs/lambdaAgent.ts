import type { CheckResult } from './preflight';
import { asFields } from '../text/json';

// The bring-your-own-agent contract, from the AWS guide's MTRL page "Preparing your agent" (docs/service-facts.md):
// the service invokes the Lambda with {prompt, metadata: {jobArn, rolloutId}, inferenceParams} and reads {} or {errorType, errorMessage}.

/** Seconds the guide gives a bring-your-own-agent Lambda: shorter, and a long rollout is cut off. */
export const LAMBDA_MIN_TIMEOUT_SECONDS = 600;

/** The documented `errorType` values of a Lambda agent's answer. */
export const LAMBDA_ERROR_TYPES: readonly string[] = ['ValidationError', 'InternalServerError', 'AccessDenied', 'Throttling'];

/** The request the service sends, for a job that does not exist: the agent should answer in a documented shape and report nothing. */
export function lambdaSmokeRequest(functionArn: string): Record<string, unknown> {
  const [, partition = 'aws', , region = 'us-east-1', account = '000000000000'] = functionArn.split(':');
  return {
    prompt: 'MTRL pre-flight smoke call: answer in the documented shape.',
    metadata: {
      jobArn: `arn:${partition}:sagemaker:${region}:${account}:job/AgentRFT/mtrl-preflight-smoke`,
      rolloutId: 'mtrl-preflight-smoke',
    },
    // camelCase only, as the service sends it: a Lambda that needs max_tokens or top_p fails here as it would in a job.
    inferenceParams: { temperature: 1, topP: 1, maxTokens: 512 },
  };
}

/** What the pre-flight learnt about the function; `notChecked` when the call was denied or throttled. */
export interface LambdaFacts {
  arn: string;
  timeoutSeconds?: number;
  unreadable?: string;
  notChecked?: string;
}

const LAMBDA_ARN = /^arn:aws[a-z-]*:lambda:([a-z0-9-]+):\d{12}:function:[\w-]+(:[\w$-]+)?$/;

export function checkLambdaAgent(lambda: LambdaFacts, jobRegion: string): CheckResult {
  const at = { check: 'runtime', key: 'LambdaArn' } as const;
  const region = LAMBDA_ARN.exec(lambda.arn)?.[1];
  if (!region)
    return {
      ...at,
      level: 'fail',
      message: `${lambda.arn} is not a Lambda function ARN.`,
      fix: 'Use arn:aws:lambda:<region>:<account>:function:<name>.',
    };
  if (region !== jobRegion)
    return {
      ...at,
      level: 'fail',
      message: `The agent Lambda is in ${region} but the job runs in ${jobRegion}.`,
      fix: `Launch in ${region}, or deploy the Lambda to ${jobRegion}.`,
    };
  if (lambda.notChecked) return { ...at, level: 'warn', message: `Agent Lambda ${lambda.arn}: not checked (${lambda.notChecked}).` };
  if (lambda.unreadable)
    return {
      ...at,
      level: 'fail',
      message: `The agent Lambda could not be read: ${lambda.unreadable}`,
      fix: 'Check the ARN, or deploy the function.',
    };
  if (lambda.timeoutSeconds !== undefined && lambda.timeoutSeconds < LAMBDA_MIN_TIMEOUT_SECONDS)
    return {
      ...at,
      level: 'warn',
      message: `The agent Lambda's timeout is ${lambda.timeoutSeconds} s; the guide gives ${LAMBDA_MIN_TIMEOUT_SECONDS} s, so a longer rollout is cut off.`,
      fix: `Raise the function's timeout to ${LAMBDA_MIN_TIMEOUT_SECONDS} s (aws lambda update-function-configuration --timeout ${LAMBDA_MIN_TIMEOUT_SECONDS}).`,
    };
  return { ...at, level: 'pass', message: `Agent Lambda found, timeout ${lambda.timeoutSeconds ?? '?'} s.` };
}

/** The smoke call's answer: a raised error, a documented shape (`{}` or a documented errorType), or something else. */
export interface LambdaSmokeAnswer {
  functionError?: string;
  text: string;
  json?: unknown;
}

export function checkLambdaSmoke(answer: LambdaSmokeAnswer | { notChecked: string }): CheckResult {
  const at = { check: 'smoke', key: 'LambdaArn' } as const;
  if ('notChecked' in answer) return { ...at, level: 'warn', message: `Lambda smoke call: not checked (${answer.notChecked}).` };
  const quoted = answer.text.length > 300 ? `${answer.text.slice(0, 300)}…` : answer.text;
  if (answer.functionError)
    return {
      ...at,
      level: 'fail',
      message: `The agent Lambda raised on the documented request (${answer.functionError}): ${quoted}`,
      fix: 'Read the request as {prompt, metadata: {jobArn, rolloutId}, inferenceParams} and answer {} or {errorType, errorMessage}; see its CloudWatch log.',
    };
  const json = answer.json;
  const object = asFields(json);
  if (object && Object.keys(object).length === 0)
    return { ...at, level: 'pass', message: 'Lambda smoke call answered {} (the documented success).' };
  if (object && typeof object.errorType === 'string' && LAMBDA_ERROR_TYPES.includes(object.errorType))
    return {
      ...at,
      level: 'pass',
      message: `Lambda smoke call answered the documented error shape: ${object.errorType}: ${String(object.errorMessage ?? '')} (expected for a job that does not exist).`,
    };
  return {
    ...at,
    level: 'warn',
    message: `Lambda smoke call answered outside the documented shapes: ${quoted || '(empty)'}`,
    fix: `Answer {} or {"errorType": one of ${LAMBDA_ERROR_TYPES.join(', ')}, "errorMessage": "…"}.`,
  };
}
