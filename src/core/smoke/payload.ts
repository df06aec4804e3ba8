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
/** A game that never reaches the model scores this (the reward's no-play outcome): the expected smoke-test reward. */
export const NEVER_PLAYED_REWARD = -1.5;

interface SmokePayload {
  prompt: string;
  metadata: { jobArn: string; rolloutId: string };
}

/** The fake job ARN: the caller's account (another account's id gives a 403) and the runtime's region. */
function smokeJobArn(account: string, region: string, partition = 'aws'): string {
  return jobArnOf({ partition, region, account, category: 'AgentRFT', jobName: SMOKE_JOB_NAME });
}

export function smokePayload(account: string, region: string, partition = 'aws'): SmokePayload {
  return {
    prompt: JSON.stringify({ prompt: 'Guess the 5-letter word', answer: SMOKE_ANSWER, id: SMOKE_JOB_NAME }),
    metadata: { jobArn: smokeJobArn(account, region, partition), rolloutId: 'r1' },
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
