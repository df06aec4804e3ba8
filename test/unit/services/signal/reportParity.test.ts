import { strict as assert } from 'node:assert';
import { RolloutRecording } from '../../../../src/core/signal/rolloutRecording';
import { startEmulator, type Emulator } from '../../../../src/emulator/server';
import { startJobRuntime, type JobRuntime } from '../../../../src/services/signal/jobRuntime';
import { startKeyPolicy, type KeyPolicy } from '../../hostile/keyPolicy';
import { ceiling } from '../../../host/lib/ceiling';

// Issue 46: an agent's CompleteRollout and UpdateReward, with and without ClientToken, answered alike by the local job
// runtime of `mtrl signal --local` and by the emulator's Job Runtime (one ledger, src/core/signal/runtimeReports.ts).

const EMULATED_JOB = 'arn:aws:sagemaker:us-east-1:111122223333:job/AgentRFT/wordle-gptoss20b-grpo-lr-sweep';
const LOCAL_JOB = 'arn:aws:sagemaker:us-east-1:000000000000:job/AgentRFT/local';

/** [operation, body] in order, and the status each must get. */
const SEQUENCE: [string, Record<string, unknown>, number, string][] = [
  ['complete-rollout', { Status: 'ready', ClientToken: 'c-1' }, 200, 'the first CompleteRollout'],
  ['complete-rollout', { Status: 'ready', ClientToken: 'c-1' }, 200, 'its retry with the same token'],
  ['complete-rollout', { Status: 'ready', ClientToken: 'c-2' }, 409, 'a second CompleteRollout with a new token'],
  ['complete-rollout', { Status: 'failed', ClientToken: 'c-1' }, 409, 'the token reused with other arguments'],
  ['complete-rollout', { Status: 'ready' }, 200, "no token, the same status (the SDK's feedback client's retry)"],
  ['complete-rollout', { Status: 'failed' }, 409, 'no token, another status'],
  ['update-reward', { Rewards: [0.5], ClientToken: 'r-1' }, 200, 'the first UpdateReward'],
  ['update-reward', { Rewards: [0.5], ClientToken: 'r-1' }, 200, 'its retry with the same token'],
  ['update-reward', { Rewards: [0.5], ClientToken: 'r-2' }, 409, 'a second UpdateReward with a new token'],
  ['update-reward', { Rewards: [0.9] }, 409, 'a second UpdateReward without a token'],
  ['update-reward', { Rewards: [0.5], ClientToken: 'c-1' }, 409, "CompleteRollout's token on UpdateReward"],
  ['update-reward', { Rewards: ['NaN'], ClientToken: 'r-3' }, 400, 'a reward that breaks the reward rule'],
];

describe('CompleteRollout and UpdateReward with ClientToken: the local job runtime and the emulator answer alike', function () {
  this.timeout(ceiling(15_000));
  let emulator: Emulator;
  let policy: KeyPolicy;
  let runtime: JobRuntime;
  before(async () => {
    emulator = await startEmulator({ speed: 1 });
    policy = await startKeyPolicy();
    runtime = await startJobRuntime({ baseUrl: policy.baseUrl });
  });
  after(async () => {
    await runtime.close();
    await policy.close();
    await emulator.close();
  });

  const play = async (url: (op: string) => string, job: string, trajectory: string) => {
    const got: string[] = [];
    for (const [op, body] of SEQUENCE) {
      const r = await fetch(url(op), {
        method: 'POST',
        headers: { 'content-type': 'application/json', 'x-amzn-sagemaker-job-arn': job },
        body: JSON.stringify({ TrajectoryId: trajectory, ...body }),
      });
      got.push(`${r.status} ${r.status === 200 ? '' : (r.headers.get('x-amzn-errortype') ?? '')}`.trim());
    }
    return got;
  };

  it('the same statuses and error types for every call of the sequence', async () => {
    const wordle = { model: 'scripted-0.9', messages: [{ role: 'user', content: 'Guess the 5-letter word' }] };
    const opened = await fetch(`${emulator.url}/sample`, {
      method: 'POST',
      headers: { 'content-type': 'application/json', 'x-amzn-sagemaker-job-arn': EMULATED_JOB, 'x-amzn-sagemaker-trajectory-id': 'traj-p' },
      body: JSON.stringify(wordle),
    });
    assert.equal(opened.status, 200);
    const emulated = await play((op) => `${emulator.url}/${op}`, EMULATED_JOB, 'traj-p');

    runtime.add(new RolloutRecording({ id: 'traj-p', groupKey: 'g', row: {}, rowIndex: 0, prompt: 'p', jobArn: LOCAL_JOB }));
    const local = await play((op) => `${runtime.endpointOf('traj-p')}/${op}`, LOCAL_JOB, 'traj-p');

    const expected = SEQUENCE.map(([, , status]) =>
      status === 200 ? '200' : status === 409 ? '409 ConflictException' : '400 ValidationException',
    );
    const named = (got: string[]) => got.map((g, i) => `${SEQUENCE[i][3]}: ${g}`);
    assert.deepEqual(named(local), named(expected), 'the local job runtime');
    assert.deepEqual(named(emulated), named(expected), 'the emulator');
  });
});
