import assert from 'node:assert/strict';
import { MlflowClient } from '../../../src/aws/mlflow/client';
import { describeJob } from '../../../src/aws/sagemaker';
import { parseMlflowArn } from '../../../src/core/metrics/mlflow';
import { ManualClock } from '../../../src/emulator/clock';
import { Random } from '../../../src/emulator/random';
import { playRefund } from '../../../src/emulator/refund/agent';
import { RefundDesk } from '../../../src/emulator/refund/desk';
import { expectedOutcome, refundRows, ticketOf } from '../../../src/emulator/refund/tickets';
import { SEEDED } from '../../../src/emulator/seed';
import { createTrainingJob, trainingDocument, withEmulator } from './helpers';
import { ceiling } from '../../host/lib/ceiling';

const credentials = async () => ({ accessKeyId: 'test', secretAccessKey: 'test' });

describe('emulator: the refund desk', function () {
  this.timeout(ceiling(60_000));

  it('scores 0.25 per part done right: lookup, policy for the true reason, the right refund, the right resolution', () => {
    const row = refundRows('train').find((r) => ticketOf(r.prompt).reason === 'changed_mind' && ticketOf(r.prompt).deliveredDaysAgo <= 30)!;
    const ticket = ticketOf(row.prompt);
    const want = expectedOutcome(ticket);
    assert.equal(want.amount, Math.round(ticket.price * 85) / 100, 'a change of mind in the window: price minus 15 %');
    const desk = new RefundDesk(ticket);
    assert.deepEqual(desk.call('lookup_order', '{"order_id": "ORD-00000"}'), { found: false, error: 'No order ORD-00000.' });
    assert.equal(desk.reward(), 0);
    assert.equal(desk.call('lookup_order', JSON.stringify({ order_id: ticket.orderId })).found, true);
    assert.equal(desk.reward(), 0.25);
    assert.equal(desk.call('check_policy', '{"reason": "damaged"}').percent, 100);
    assert.equal(desk.reward(), 0.25, 'the policy for another reason earns nothing');
    assert.equal(desk.call('check_policy', '{"reason": "changed_mind"}').percent, 85);
    desk.call('issue_refund', JSON.stringify({ order_id: ticket.orderId, amount: want.amount }));
    assert.equal(desk.reward(), 0.5, 'the refund counts once the ticket is closed');
    assert.equal(desk.over, false);
    desk.call('close_ticket', '{"resolution": "refunded"}');
    assert.deepEqual([desk.reward(), desk.over], [1, true]);
    assert.match(String(desk.call('lookup_order', '{}').error), /session is closed/);
    const other = new RefundDesk(ticket);
    assert.match(String(other.call('issue_refund', '{"order_id": 1').error), /not a JSON object/);
    assert.match(String(other.call('refund_everything', '{}').error), /Unknown tool refund_everything/);
  });

  it('routine tickets are solved by every rollout; the training tickets split, less so as the skill rises', () => {
    const groups = (rows: { prompt: string }[], skill: number) =>
      rows.map((row, i) => Array.from({ length: 4 }, (_, j) => playRefund(row.prompt, skill, new Random(`g${i}#${j}`)).reward));
    const zeroAdvantage = (gs: number[][]) => gs.filter((g) => g.every((r) => r === g[0])).length / gs.length;
    assert.equal(zeroAdvantage(groups(refundRows('routine'), 0)), 1);
    assert.ok(
      groups(refundRows('routine'), 0)
        .flat()
        .every((r) => r === 1),
    );
    const [low, high] = [groups(refundRows('train'), 0), groups(refundRows('train'), 1)];
    assert.ok(zeroAdvantage(low) > 0.3 && zeroAdvantage(low) < 0.8, `routine tickets and a few lucky groups: ${zeroAdvantage(low)}`);
    const mean = (gs: number[][]) => gs.flat().reduce((a, b) => a + b, 0) / gs.flat().length;
    assert.ok(mean(high) > mean(low) + 0.15, `${mean(low)} → ${mean(high)}`);
  });

  it('a job on the routine tickets logs every group with advantage 0', async () => {
    const clock = new ManualClock();
    await withEmulator({ clock, history: false }, async (emulator, aws) => {
      const document = trainingDocument(
        { max_steps: '2', max_epochs: '2', global_batch_size: '32', group_size: '4' },
        SEEDED.refundRuntime,
      );
      (document.InputDataConfig as { DataSource: { S3DataSource: { S3Uri: string } } }[])[0].DataSource.S3DataSource.S3Uri =
        SEEDED.refundRoutine;
      await createTrainingJob(aws, 'routine', document);
      clock.advance(24 * 3_600_000);
      const details = (await describeJob(aws.sagemaker(), { jobName: 'routine', category: 'AgentRFT' })).config!.ServiceOutput!
        .MlflowDetails!;
      const client = new MlflowClient(parseMlflowArn(SEEDED.mlflowApp)!, { credentials, endpoint: emulator.url });
      const { points: zero } = await client.metricHistory(details.RunId!, 'analysis/zero_adv_groups');
      const { points: reward } = await client.metricHistory(details.RunId!, 'rollout/reward/mean');
      assert.deepEqual(
        zero.map((p) => [p.step, p.value]),
        [
          [1, 32],
          [2, 32],
        ],
      );
      assert.deepEqual(
        reward.map((p) => p.value),
        [1, 1],
      );
    });
  });
});
