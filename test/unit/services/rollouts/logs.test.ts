import { strict as assert } from 'node:assert';
import { RolloutPipeline, skippedLineNotes } from '../../../../src/core/rollouts';
import { ManualClock } from '../../../../src/emulator/clock';
import { jobReader, jobStepClock, streamReader } from '../../../../src/services/rollouts';
import { createTrainingJob, trainingDocument, withEmulator } from '../../emulator/helpers';
import { ceiling } from '../../../host/lib/ceiling';

describe("a job's rollout log", function () {
  this.timeout(ceiling(60_000));

  it('reads the latest step first, then the rest, and the service log dates every rollout to the step its record names', async () => {
    const clock = new ManualClock();
    await withEmulator({ clock, history: false }, async (_emulator, aws) => {
      const document = trainingDocument({ max_steps: '4', global_batch_size: '32', group_size: '2' });
      await createTrainingJob(aws, 'four', document);
      clock.advance(24 * 3_600_000);
      const signal = new AbortController().signal;
      const job = { jobName: 'four', category: 'AgentRFT' as const };
      const steps = await jobStepClock(aws, job, signal);
      assert.equal(steps.lastStep, 4);
      const reader = await jobReader(aws, job, signal);
      const context = await reader.context!(signal);
      assert.ok((context.tasks?.size ?? 0) > 0, "the training data named in the job's InputDataConfig is read from S3");
      assert.equal(context.successThreshold, undefined, 'the job names no success_threshold: the default applies');
      const pipeline = new RolloutPipeline(context, (t) => reader.accepts(t));
      const order: number[] = [];
      for await (const line of reader.read(signal)) {
        pipeline.feed(line);
        for (const r of pipeline.take()) order.push(r.step!);
      }
      assert.equal(order.length, 4 * 64);
      assert.deepEqual(order.slice(0, 64), new Array(64).fill(4), 'the latest step comes first');
      assert.deepEqual([...new Set(order.slice(64))], [1, 2, 3]);
      const pipeline2 = new RolloutPipeline();
      for await (const line of (await jobReader(aws, job, signal)).read(signal)) pipeline2.feed(line);
      const rollouts = pipeline2.finish();
      assert.ok(
        rollouts.every((r) => r.time !== undefined && steps.stepAt(r.time) === r.step),
        'log evidence agrees with the records',
      );
      assert.equal(await reader.followable(signal), false);
    });
  });

  it('leaves steps unknown when the job has no service log', async () => {
    await withEmulator({ history: false }, async (_emulator, aws) => {
      const clock = await jobStepClock(aws, { jobName: 'none', category: 'AgentRFT' }, new AbortController().signal);
      assert.equal(clock.size, 0);
    });
  });
});

describe('a log file read for the board', () => {
  it('lists a line past the line cap (which line, how long), reads the lines around it, and starts over on each read', async () => {
    const record = (id: string) =>
      JSON.stringify({ mtrl_rollout: 1, trajectory_id: id, answer: 'crane', turns: [{ guess: 'crane' }], solved: true, reward: 1 });
    const reader = streamReader(async () =>
      (async function* () {
        yield new TextEncoder().encode(`${record('a')}\n`);
        const mb = 'x'.repeat(1024 * 1024);
        for (let i = 0; i < 65; i++) yield mb;
        yield `\n${record('b')}\n`;
      })(),
    );
    for (let pass = 0; pass < 2; pass++) {
      const pipeline = new RolloutPipeline();
      for await (const item of reader.read(new AbortController().signal)) pipeline.feed(item);
      assert.deepEqual(
        pipeline.finish().map((r) => r.id),
        ['a', 'b'],
      );
      assert.deepEqual(reader.skipped, [{ line: 2, chars: 65 * 1024 * 1024 }]);
    }
    assert.deepEqual(skippedLineNotes(reader.skipped ?? []), [
      'line 2 (68,157,440 characters) is longer than 64 M characters and was not read',
    ]);
  });
});
