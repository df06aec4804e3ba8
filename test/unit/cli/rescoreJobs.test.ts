import { strict as assert } from 'node:assert';
import path from 'node:path';
import { main } from '../../../src/cli';
import { ManualClock } from '../../../src/emulator/clock';
import { SEEDED } from '../../../src/emulator/seed';
import { withEmulator } from '../emulator/helpers';
import { ceiling } from '../../host/lib/ceiling';

async function mtrl(...args: string[]) {
  const out: string[] = [];
  const err: string[] = [];
  const code = await main(args, { out: (t) => out.push(t), err: (t) => err.push(t), stdin: () => [] });
  return { code, out: out.join('\n'), err: err.join('\n') };
}

const demo = (name: string) => path.resolve(__dirname, '../../fixtures/demo-workspace', name);
const scenarios = (name: string) => path.resolve(__dirname, '../../fixtures/workspace/reward-scenarios', name);

interface Rollout {
  groupKey: string;
  reward?: number;
  turns: { toolCalls: { name: string; result?: unknown; error?: string }[] }[];
}

/** Groups of two or more rollouts whose rewards are all equal, counted by hand. */
function flatGroups(rollouts: readonly Rollout[], score: (r: Rollout) => number): [number, number] {
  const groups = new Map<string, number[]>();
  for (const r of rollouts) groups.set(r.groupKey, [...(groups.get(r.groupKey) ?? []), score(r)]);
  const counted = [...groups.values()].filter((g) => g.length >= 2);
  return [counted.filter((g) => g.every((x) => Math.abs(x - g[0]) <= 1e-9)).length, counted.length];
}

/** The demo's draft refund reward, written again here: 0.25 for each of the four tools that answered without an error. */
function draftRefundReward(r: Rollout): number {
  const worked = new Set<string>();
  for (const turn of r.turns)
    for (const call of turn.toolCalls) {
      const result =
        typeof call.result === 'string' ? (JSON.parse(call.result) as Record<string, unknown>) : (call.result as Record<string, unknown>);
      if (!call.error && !result?.error) worked.add(call.name);
    }
  return 0.25 * ['lookup_order', 'check_policy', 'issue_refund', 'close_ticket'].filter((t) => worked.has(t)).length;
}

describe('mtrl reward --job: what a changed reward would have given a seeded job', function () {
  this.timeout(ceiling(180_000));

  it('refund desk: zero-advantage groups before and after match a hand count over the same transcripts', async () => {
    await withEmulator({ clock: new ManualClock() }, async (emulator) => {
      const job = ['--job', SEEDED.refundJob, '--endpoint', emulator.url];
      const rollouts = (await mtrl('rollouts', ...job, '--transcripts')).out.split('\n').map((l) => JSON.parse(l) as Rollout);
      // Read through the product's reader: every step holds global_batch_size (32) distinct tickets of group_size (4), never pooled.
      const perStep = new Map<number | undefined, Map<string, number>>();
      for (const r of rollouts as (Rollout & { step?: number; task: { prompt: string } })[]) {
        const tasks = perStep.get(r.step) ?? new Map<string, number>();
        tasks.set(r.groupKey, (tasks.get(r.groupKey) ?? 0) + 1);
        perStep.set(r.step, tasks);
      }
      assert.deepEqual(
        [...perStep.keys()].sort((a, b) => a! - b!),
        [1, 2, 3, 4, 5, 6, 7, 8, 9, 10],
      );
      for (const tasks of perStep.values())
        assert.deepEqual([tasks.size, new Set(tasks.values()).size, [...tasks.values()][0]], [32, 1, 4]);
      const { code, out } = await mtrl('reward', demo('refund.mtrl-reward.json'), ...job, '--json');
      assert.equal(code, 0);
      const report = JSON.parse(out);
      assert.equal(report.rollouts, rollouts.length);
      assert.deepEqual(
        [report.before.zeroAdvantageGroups, report.before.groups],
        flatGroups(rollouts, (r) => r.reward ?? 0),
      );
      assert.deepEqual([report.after.zeroAdvantageGroups, report.after.groups], flatGroups(rollouts, draftRefundReward));
      assert.notEqual(report.before.zeroAdvantageGroups, report.after.zeroAdvantageGroups, 'the draft reward changes the signal');
    });
  });

  it('Wordle: a reward made constant leaves every group with zero advantage; before matches the hand count', async () => {
    await withEmulator({ clock: new ManualClock() }, async (emulator) => {
      // The running sweep, 12 of its 100 steps done on the still clock: each read of a job plays all its games again, and the
      // finished job's 100 steps of 1,024 rollouts took a minute to read twice. Step 2 alone is re-scored (1,024 rollouts).
      const job = ['--job', SEEDED.inProgressJob, '--endpoint', emulator.url];
      const step2 = (await mtrl('rollouts', ...job, '--step', '2', '--transcripts')).out.split('\n').map((l) => JSON.parse(l) as Rollout);
      const { code, out } = await mtrl('reward', scenarios('wordle_constant.mtrl-reward.json'), ...job, '--steps', '2-2', '--json');
      assert.equal(code, 0);
      const report = JSON.parse(out);
      assert.equal(report.rollouts, step2.length);
      assert.equal(report.after.zeroAdvantageShare, 1);
      assert.deepEqual(
        [report.before.zeroAdvantageGroups, report.before.groups],
        flatGroups(step2, (r) => r.reward ?? 0),
      );
    });
  });
});
