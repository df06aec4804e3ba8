import { jobArnOf } from '../jobs/reference';

/** The smoke-test request of a deployed agent runtime: a fake job of the caller's own account. */

const RUNTIME_ARN = /^arn:(aws[a-z-]*):bedrock-agentcore:([a-z0-9-]+):([0-9]{12}):runtime\/([a-zA-Z0-9_-]+)$/;

interface RuntimeArnParts {
  partition: string;
  region: string;
  account: string;
  runtimeId: string;
}

/** The parts of a runtime ARN, or undefined when the text is not one. */
export function parseRuntimeArn(arn: string): RuntimeArnParts | undefined {
  const m = RUNTIME_ARN.exec(arn.trim());
  return m ? { partition: m[1], region: m[2], account: m[3], runtimeId: m[4] } : undefined;
}

/** Where AgentCore writes the agent's stdout and stderr for an endpoint (qualifier), DEFAULT unless named. */
export function runtimeLogGroup(runtimeId: string, qualifier = 'DEFAULT'): string {
  return `/aws/bedrock-agentcore/runtimes/${runtimeId}-${qualifier}`;
}

const SMOKE_ANSWER = 'beach';
const SMOKE_JOB_NAME = 'smoke-test';
const SMOKE_ROLLOUT = 'r1';

/**
 * The SDK's rollout contract (`instance` = the row, `metadata`, `inferenceParams`, `modelName`, `modelEndpoint`)
 * plus the top-level `prompt` the public Wordle sample reads: an agent reading either form gets its row.
 */
interface SmokePayload {
  instance: { prompt: string };
  prompt: string;
  metadata: { job_arn: string; trajectory_id: string; endpoint: string; region: string; jobArn: string; rolloutId: string };
  inferenceParams: { temperature: number; max_tokens: number; top_p: number };
  modelName: string;
  modelEndpoint: string;
}

/** The Job Runtime's base URL in a region; some agents refuse any other host. */
function jobRuntimeEndpoint(region: string): string {
  return `https://job-runtime.sagemaker.${region}.api.aws`;
}

/** The fake job ARN: the caller's account (another account's id gives a 403) and the runtime's region. */
function smokeJobArn(account: string, region: string, partition = 'aws'): string {
  return jobArnOf({ partition, region, account, category: 'AgentRFT', jobName: SMOKE_JOB_NAME });
}

export function smokePayload(account: string, region: string, partition = 'aws'): SmokePayload {
  const prompt = JSON.stringify({ prompt: 'Guess the 5-letter word', answer: SMOKE_ANSWER, id: SMOKE_JOB_NAME });
  const jobArn = smokeJobArn(account, region, partition);
  const endpoint = jobRuntimeEndpoint(region);
  return {
    instance: { prompt },
    prompt,
    // Both spellings the SDK and agents were seen using: snake_case per the contract, camelCase in older agents.
    metadata: { job_arn: jobArn, trajectory_id: SMOKE_ROLLOUT, endpoint, region, jobArn, rolloutId: SMOKE_ROLLOUT },
    inferenceParams: { temperature: 1, max_tokens: 1024, top_p: 1 },
    modelName: 'smoke-test',
    modelEndpoint: `${endpoint}/v1`,
  };
}

const SESSION_ALPHABET = 'abcdefghijklmnopqrstuvwxyz0123456789';

/** A runtime session id: AgentCore wants 33–256 characters; 46 here, readable in the logs. */
export function smokeSessionId(random: () => number = Math.random, now: Date = new Date()): string {
  const stamp = now
    .toISOString()
    .replace(/[-:.TZ]/g, '')
    .slice(0, 14);
  let tail = '';
  for (let i = 0; i < 20; i++) tail += SESSION_ALPHABET[Math.floor(random() * SESSION_ALPHABET.length)];
  return `mtrl-smoke-${stamp}-${tail}`;
}
