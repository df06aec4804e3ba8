import { strict as assert } from 'node:assert';
import { main } from '../../../src/cli';
import { createJob } from '../../../src/aws/sagemaker';
import { ManualClock } from '../../../src/emulator/clock';
import { SEEDED } from '../../../src/emulator/seed';
import { trainingDocument, withEmulator } from '../emulator/helpers';

async function run(...argv: string[]): Promise<{ code: number; out: string; err: string }> {
  let out = '';
  let err = '';
  const code = await main(['rollouts', ...argv], { out: (t) => void (out += t + '\n'), err: (t) => void (err += t + '\n'), stdin: async () => '' });
  return { code, out, err };
}

describe('mtrl rollouts --job', function () {
  this.timeout(60_000);

  it('reads a finished job through the endpoint: one GRPO group per task and step, and the per-step numbers', async () => {
    const clock = new ManualClock();
    await withEmulator({ clock, history: false }, async (emulator, aws) => {
      const document = trainingDocument({ max_steps: '3', global_batch_size: '32', group_size: '4' });
      await createJob(aws.sagemaker(), { JobName: 'tiny', JobCategory: 'AgentRFT', RoleArn: SEEDED.jobRole, JobConfigSchemaVersion: '1.0.0', JobConfigDocument: JSON.stringify(document) });
      clock.advance(24 * 3_600_000);
      const { code, out } = await run('--job', 'tiny', '--endpoint', emulator.url, '--json');
      assert.equal(code, 0, out);
      const json = JSON.parse(out);
      assert.equal(json.rollouts, 3 * 32 * 4);
      assert.equal(json.groups, 3 * 32, 'a group is one task in one step');
      assert.deepEqual(json.steps.map((s: { step: number; rollouts: number; groups: number }) => [s.step, s.rollouts, s.groups]), [[1, 128, 32], [2, 128, 32], [3, 128, 32]]);
      assert.equal(json.grpo_groups.pooled, 0);
      const overall = json.steps.reduce((sum: number, s: { reward_mean: number }) => sum + s.reward_mean, 0) / 3;
      assert.ok(Math.abs(overall - json.reward.mean) < 1e-3, 'equal steps: the mean of step means is the overall mean');

      const one = JSON.parse((await run('--job', 'tiny', '--step', '2', '--endpoint', emulator.url, '--json')).out);
      assert.equal(one.rollouts, 128);
      assert.deepEqual(one.steps.map((s: { step: number }) => s.step), [2]);
      assert.equal(one.steps[0].reward_mean, json.steps[1].reward_mean);

      const text = await run('--job', 'tiny', '--endpoint', emulator.url);
      assert.match(text.out, /384 rollouts in 96 GRPO groups from job tiny/);
      assert.match(text.out, /step {2}rollouts {2}solve rate {2}reward mean/);
    });
  });

  it('explains a missing job in one sentence, and rejects bad arguments', async () => {
    await withEmulator({ history: false }, async (emulator) => {
      const missing = await run('--job', 'nope', '--endpoint', emulator.url);
      assert.equal(missing.code, 2);
      assert.match(missing.err, /nope/);
      assert.doesNotMatch(missing.err, /\n\s+at /, 'no stack trace');
    });
    assert.equal((await run('--job', 'x', 'file.log')).code, 2);
    assert.equal((await run('--job', 'x', '--step', 'two')).code, 2);
  });
});
