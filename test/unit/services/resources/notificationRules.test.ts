import { strict as assert } from 'node:assert';
import { readFileSync } from 'node:fs';
import path from 'node:path';
import { StopJobCommand } from '@aws-sdk/client-sagemaker';
import { describeAwsError, explainerFor } from '../../../../src/aws/errors';
import { DocumentSchemas } from '../../../../src/core/jobs/documentSchema';
import { parseJobFile } from '../../../../src/core/jobs/jobfile';
import { DEFAULT_PRICING } from '../../../../src/core/jobs/pricing';
import { resourceRef } from '../../../../src/core/resources/references';
import { ManualClock } from '../../../../src/emulator/clock';
import { SEEDED } from '../../../../src/emulator/seed';
import { launchJob } from '../../../../src/services/launch/launch';
import { ModelCatalog } from '../../../../src/services/launch/modelCatalog';
import { awsCleanupTarget } from '../../../../src/services/resources/awsTarget';
import { runCleanup } from '../../../../src/services/resources/cleanup';
import { planCleanup } from '../../../../src/services/resources/cleanupPlan';
import { loadInventory } from '../../../../src/services/resources/inventory';
import { withEmulator } from '../../emulator/helpers';
import { ceiling } from '../../../host/lib/ceiling';

const demo = parseJobFile(
  readFileSync(path.resolve(__dirname, '../../../fixtures/demo-workspace/wordle-training.mtrl.json'), 'utf8'),
).jobFile!;
const explain = (e: unknown, action: string) => describeAwsError(e, { action });

describe('resources: the notification rule a launch made (emulator, real SDK over HTTP)', function () {
  this.timeout(ceiling(60_000));

  it('lists the rule with its job and target, refuses it while the job runs, then removes its target and deletes it', async () => {
    const clock = new ManualClock();
    await withEmulator({ clock, history: false }, async (emulator, aws) => {
      const deps = {
        aws,
        schemas: new DocumentSchemas(),
        models: new ModelCatalog(aws, () => []),
        explain: explainerFor(() => aws.current),
        pricing: () => DEFAULT_PRICING,
        smokeResults: () => ({}),
        log: () => undefined,
      };
      const job = { ...demo, JobName: 'notify-cleanup', Notifications: { SnsTopicArn: SEEDED.topic } };
      const launched = await launchJob(job, deps, {}, { checks: [] } as never);
      assert.equal(launched.launched, true, launched.reason);
      const inventory = () => loadInventory(aws, { regions: ['us-east-1'], pricing: DEFAULT_PRICING, now: new Date(clock.now()), explain });

      const [rule] = (await inventory()).notificationRules;
      assert.ok(rule, 'the rule is listed');
      assert.deepEqual(resourceRef(rule.ref.id), rule.ref, 'its ARN names a notification rule');
      assert.match(rule.label, /^sm-pysdk-job-notif-[0-9a-f]{8}$/);
      assert.equal(rule.status, `→ ${SEEDED.topic}`);
      assert.deepEqual([rule.jobs, rule.running], [['notify-cleanup'], ['notify-cleanup']]);
      assert.equal(planCleanup(await inventory(), [rule.ref]).steps.length, 0, 'refused while the job runs');

      await aws.sagemaker().send(new StopJobCommand({ JobName: 'notify-cleanup', JobCategory: 'AgentRFT' }));
      clock.advance(10 * 60_000);
      const plan = planCleanup(await inventory(), [rule.ref]);
      assert.equal(plan.steps[0]?.action, 'remove its targets, then delete the EventBridge rule');
      assert.match(plan.steps[0].warning ?? '', /shared by every launch with the same topic/);
      const result = await runCleanup(plan, awsCleanupTarget(aws, ['us-east-1'], explain), () => undefined);
      assert.deepEqual(
        result.deleted.map((d) => d.ref.id),
        [rule.ref.id],
      );
      assert.equal(emulator.world.eventRules.size, 0);
      assert.deepEqual((await inventory()).notificationRules, [], 'a deleted rule is no longer listed');
    });
  });
});
