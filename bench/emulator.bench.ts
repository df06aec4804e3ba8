// The local emulator: how fast rollout logs stream through FilterLogEvents over HTTP with the real SDK,
// against a baseline measured in the same run: generating the same rollouts in-process (no HTTP, no SDK).
import { AwsClients } from '../src/aws/clients';
import { filterLogEvents } from '../src/aws/logs';
import { describeJob } from '../src/aws/sagemaker';
import { callerIdentity } from '../src/aws/sts';
import { rolloutOf } from '../src/emulator/rollouts';
import { SEEDED } from '../src/emulator/seed';
import { startEmulator } from '../src/emulator/server';

process.env.AWS_ACCESS_KEY_ID ??= 'test';
process.env.AWS_SECRET_ACCESS_KEY ??= 'test';

const ROLLOUTS = 6_000;
const GROUP = '/aws/bedrock-agentcore/runtimes/wordle_agent-AbCdEf1234-DEFAULT';

async function main(): Promise<void> {
  const emulator = await startEmulator();
  const aws = new AwsClients(() => ({ region: 'us-east-1', endpoint: emulator.url }));
  try {
    const job = emulator.world.jobs.get(emulator.world.jobKey('AgentRFT', SEEDED.completedJob));
    if (!job) throw new Error('the seeded completed job is missing');

    let t = performance.now();
    for (let k = 0; k < ROLLOUTS; k++) rolloutOf(job, k);
    const inProcessMs = performance.now() - t;

    t = performance.now();
    let events = 0;
    const stream = `${new Date(job.created).toISOString().slice(0, 10).replace(/-/g, '/')}/[runtime-logs]${job.name}`;
    for await (const event of filterLogEvents(aws.logs(), { logGroupName: GROUP, logStreamNames: [stream] })) {
      void event;
      if (++events >= ROLLOUTS * 3) break;
    }
    const httpMs = performance.now() - t;

    const timeIt = async (n: number, call: () => Promise<unknown>) => {
      await call();
      const start = performance.now();
      for (let i = 0; i < n; i++) await call();
      return (performance.now() - start) / n;
    };
    const identityMs = await timeIt(50, () => callerIdentity(aws.sts()));
    const describeMs = await timeIt(50, () => describeJob(aws.sagemaker(), { jobName: SEEDED.completedJob, category: 'AgentRFT' }));

    console.log(
      `rollouts generated in-process: ${ROLLOUTS} in ${inProcessMs.toFixed(0)} ms (${((inProcessMs * 1000) / ROLLOUTS).toFixed(0)} µs per game) [baseline]`,
    );
    console.log(
      `same rollouts read over HTTP (FilterLogEvents, 3 lines each): ${events} events in ${httpMs.toFixed(0)} ms (${Math.round((events / httpMs) * 1000)} events/s)`,
    );
    console.log(`ratio HTTP read / in-process generation: ${(httpMs / inProcessMs).toFixed(2)}`);
    console.log(
      `DescribeJob of the 100-step job: ${describeMs.toFixed(2)} ms per call; GetCallerIdentity [baseline]: ${identityMs.toFixed(2)} ms; ratio ${(describeMs / identityMs).toFixed(2)}`,
    );
  } finally {
    aws.reset();
    await emulator.close();
  }
}

void main();
