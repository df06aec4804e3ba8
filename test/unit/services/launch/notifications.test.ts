import { strict as assert } from 'node:assert';
import { readFileSync } from 'node:fs';
import path from 'node:path';
import { AwsClients } from '../../../../src/aws/clients';
import { explainerFor } from '../../../../src/aws/errors';
import { deleteRule, listTargetsByRule } from '../../../../src/aws/notifications';
import { describeJobDetails } from '../../../../src/aws/sagemaker';
import { DocumentSchemas } from '../../../../src/core/jobs/documentSchema';
import { jobFileFromDescription, parseJobFile, type JobFile } from '../../../../src/core/jobs/jobfile';
import { notificationsFromJobFile, ruleNameSeed } from '../../../../src/core/jobs/notifications';
import { DEFAULT_PRICING } from '../../../../src/core/jobs/pricing';
import { jobTooltip } from '../../../../src/core/jobs/tooltip';
import { SEEDED } from '../../../../src/emulator/seed';
import { startEmulator, type Emulator } from '../../../../src/emulator/server';
import { launchJob, reviewJob, type LaunchDeps } from '../../../../src/services/launch/launch';
import { ModelCatalog } from '../../../../src/services/launch/modelCatalog';
import { notificationRuleName } from '../../../../src/services/launch/notifications';
import { ceiling } from '../../../host/lib/ceiling';

const demo = parseJobFile(
  readFileSync(path.resolve(__dirname, '../../../fixtures/demo-workspace/wordle-training.mtrl.json'), 'utf8'),
).jobFile!;

describe('notifications: the SDK topic check and EventBridge rule, through the emulator (real SDK over HTTP)', function () {
  this.timeout(ceiling(30_000));
  let emulator: Emulator;
  let aws: AwsClients;
  let deps: LaunchDeps;
  const saved = { id: process.env.AWS_ACCESS_KEY_ID, secret: process.env.AWS_SECRET_ACCESS_KEY };
  const job = (name: string, notifications: JobFile['Notifications']): JobFile => ({
    ...demo,
    JobName: name,
    Notifications: notifications,
  });
  const line = async (j: JobFile) => (await reviewJob(j, deps))!.checks.find((c) => c.check === 'notifications');

  before(async () => {
    process.env.AWS_ACCESS_KEY_ID = 'test';
    process.env.AWS_SECRET_ACCESS_KEY = 'test';
    emulator = await startEmulator({ history: false });
    aws = new AwsClients(() => ({ region: 'us-east-1', endpoint: emulator.url, maxAttempts: 1 }));
    deps = {
      aws,
      schemas: new DocumentSchemas(),
      models: new ModelCatalog(aws, () => []),
      explain: explainerFor(() => aws.current),
      pricing: () => DEFAULT_PRICING,
      smokeResults: () => ({ [SEEDED.runtime]: { ok: true, at: '2026-11-29T10:00:00Z', summary: 'reward -1.5' } }),
      log: () => undefined,
    };
  });

  after(async () => {
    aws.reset();
    await emulator.close();
    process.env.AWS_ACCESS_KEY_ID = saved.id;
    process.env.AWS_SECRET_ACCESS_KEY = saved.secret;
    if (saved.id === undefined) delete process.env.AWS_ACCESS_KEY_ID;
    if (saved.secret === undefined) delete process.env.AWS_SECRET_ACCESS_KEY;
  });

  it('names the rule as the SDK does (sha256 of topic|sorted events|prefix, 8 hex digits)', () => {
    const n = { SnsTopicArn: SEEDED.topic, Events: ['failed', 'Completed'] };
    assert.equal(ruleNameSeed(n), `${SEEDED.topic}|Completed,Failed|`);
    assert.match(notificationRuleName(n), /^sm-pysdk-job-notif-[0-9a-f]{8}$/);
    assert.equal(notificationRuleName(n), notificationRuleName({ SnsTopicArn: SEEDED.topic, Events: ['Completed', 'Failed'] }));
    // Python: hashlib.sha256(b"arn:aws:sns:us-east-1:111122223333:mtrl-job-alerts|Completed,Failed,Stopped|").hexdigest()[:8]
    assert.equal(notificationRuleName({ SnsTopicArn: SEEDED.topic }), 'sm-pysdk-job-notif-a28c655c');
  });

  it('refuses a job file entry the SDK would refuse: a bad topic ARN, an unknown event', () => {
    assert.match((notificationsFromJobFile({ SnsTopicArn: 'my-topic' }) as { problem: string }).problem, /SNS topic ARN/);
    assert.match(
      (notificationsFromJobFile({ SnsTopicArn: SEEDED.topic, Events: ['Done'] }) as { problem: string }).problem,
      /"Done" is not an event/,
    );
    assert.equal(parseJobFile(JSON.stringify({ ...demo, Notifications: { SnsTopicArn: SEEDED.topic } })).problems.length, 0);
  });

  it('the pre-flight passes a topic of the region and says the rule may never fire; a missing topic, another region or a missing bus fail', async () => {
    const ok = await line(job('notify-ok', { SnsTopicArn: SEEDED.topic }));
    assert.equal(ok?.level, 'pass');
    assert.match(ok!.message, /Completed, Failed, Stopped → arn:aws:sns:us-east-1:111122223333:mtrl-job-alerts/);
    assert.match(ok!.message, /whether MTRL jobs emit them is unknown \(a guess\)/);
    const missing = await line(job('notify-missing', { SnsTopicArn: 'arn:aws:sns:us-east-1:111122223333:nobody' }));
    assert.equal(missing?.level, 'fail');
    assert.match(missing!.message, /SNS topic not found/);
    const west = await line(job('notify-west', { SnsTopicArn: 'arn:aws:sns:us-west-2:111122223333:mtrl-job-alerts' }));
    assert.equal(west?.level, 'fail');
    assert.match(west!.message, /is in us-west-2; the job and its EventBridge rule are in us-east-1/);
    const bus = await line(
      job('notify-bus', { SnsTopicArn: SEEDED.topic, EventBusArn: 'arn:aws:events:us-east-1:111122223333:event-bus/nobody' }),
    );
    assert.equal(bus?.level, 'fail');
    assert.match(bus!.message, /Event bus not found/);
    assert.equal((await line(job('notify-seeded-bus', { SnsTopicArn: SEEDED.topic, EventBusArn: SEEDED.eventBus })))?.level, 'pass');
    assert.equal(await line({ ...demo, JobName: 'notify-none' }), undefined, 'no line without Notifications');
    assert.ok((emulator.requests.get('sns:GetTopicAttributes') ?? 0) >= 3);
  });

  it('round-trips: the launch makes the rule and target, the job carries the route, the tooltip and a saved job file show it', async () => {
    const notifications = { SnsTopicArn: SEEDED.topic, Events: ['Failed', 'Stopped'], JobNamePrefix: 'notify-' };
    const launched = await launchJob(job('notify-launch', notifications), deps, {});
    assert.equal(launched.launched, true, launched.reason);
    const name = notificationRuleName(notifications);
    const rule = emulator.world.eventRules.get(`us-east-1/default/${name}`);
    assert.ok(rule, 'the rule exists on the default bus');
    assert.deepEqual(JSON.parse(rule.eventPattern!), {
      source: ['aws.sagemaker'],
      'detail-type': ['SageMaker Training Job State Change'],
      detail: { TrainingJobStatus: ['Failed', 'Stopped'], TrainingJobName: [{ prefix: 'notify-' }] },
    });
    const targets = await listTargetsByRule(aws.events(), name);
    assert.deepEqual(
      targets.map((t) => [t.Id, t.Arn, t.InputTransformer?.InputPathsMap?.job_name]),
      [[`${name}-sns-target`, SEEDED.topic, '$.detail.TrainingJobName']],
    );
    const details = await describeJobDetails(aws.sagemaker(), { jobName: 'notify-launch', category: 'AgentRFT' }, 'us-east-1');
    assert.deepEqual(details.notifications, {
      topicArn: SEEDED.topic,
      events: ['Failed', 'Stopped'],
      ruleArn: `arn:aws:events:us-east-1:111122223333:rule/${name}`,
    });
    assert.match(
      jobTooltip(details, DEFAULT_PRICING, new Date()),
      /\| Notifications \| Failed, Stopped → `arn:aws:sns:us-east-1:111122223333:mtrl-job-alerts` via rule/,
    );
    const saved = jobFileFromDescription(
      {
        JobName: 'notify-launch',
        JobConfigDocument: JSON.stringify(details.document),
        Tags: [
          { Key: 'team', Value: 'rl' },
          { Key: 'mtrl:notification-topic', Value: SEEDED.topic },
          { Key: 'mtrl:notification-events', Value: 'Failed Stopped' },
        ],
      },
      'us-east-1',
    );
    assert.deepEqual(saved.Tags, [{ Key: 'team', Value: 'rl' }], 'the route tags become Notifications again');
    assert.deepEqual(saved.Notifications, { SnsTopicArn: SEEDED.topic, Events: ['Failed', 'Stopped'] });
    // The SDK's delete_notification_rule: targets removed, then the rule.
    await deleteRule(aws.events(), name);
    assert.equal(emulator.world.eventRules.has(`us-east-1/default/${name}`), false);
  });

  it('a rule the caller cannot make stops the launch before CreateJob, with the sentence', async () => {
    const denied = await startEmulator({ history: false, deniedRegions: ['us-east-1'] });
    const deniedAws = new AwsClients(() => ({ region: 'us-east-1', endpoint: denied.url, maxAttempts: 1 }));
    try {
      const failures: string[] = [];
      const result = await launchJob(
        job('notify-denied', { SnsTopicArn: SEEDED.topic }),
        { ...deps, aws: deniedAws, explain: explainerFor(() => deniedAws.current) },
        { createFailed: (m) => failures.push(m) },
        { checks: [], verdict: 'pass' } as never,
      );
      assert.equal(result.launched, false);
      assert.match(failures[0], /notification rule.*The job was not created/s);
      assert.equal(denied.requests.get('sagemaker:CreateJob') ?? 0, 0);
    } finally {
      deniedAws.reset();
      await denied.close();
    }
  });
});
