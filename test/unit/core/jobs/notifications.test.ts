import { strict as assert } from 'node:assert';
import {
  checkNotifications,
  notificationEventPattern,
  notificationEvents,
  notificationRouteOf,
  notificationTags,
  type JobNotifications,
} from '../../../../src/core/jobs/notifications';

const TOPIC = 'arn:aws:sns:us-east-1:111122223333:alerts';

describe('notifications (the SDK’s rule, the pre-flight line, the job’s route tags)', () => {
  it('normalizes events as the SDK does and defaults to Completed, Failed, Stopped', () => {
    assert.deepEqual(notificationEvents({ SnsTopicArn: TOPIC }), ['Completed', 'Failed', 'Stopped']);
    assert.deepEqual(notificationEvents({ SnsTopicArn: TOPIC, Events: ['inprogress', 'FAILED'] }), ['InProgress', 'Failed']);
    assert.equal(
      notificationEventPattern({ SnsTopicArn: TOPIC, Events: ['failed'] }),
      '{"source":["aws.sagemaker"],"detail-type":["SageMaker Training Job State Change"],"detail":{"TrainingJobStatus":["Failed"]}}',
    );
  });

  it('the tags carry the route back from DescribeJob; a job without them has none', () => {
    const n: JobNotifications = { SnsTopicArn: TOPIC, Events: ['Completed', 'Stopped'] };
    const tags = notificationTags(n, 'arn:aws:events:us-east-1:111122223333:rule/sm-pysdk-job-notif-12345678');
    assert.ok(
      tags.every((t) => /^[\p{L}\p{Z}\p{N}_.:/=+\-@]*$/u.test(t.Value)),
      'SageMaker tag value characters',
    );
    assert.deepEqual(notificationRouteOf([{ Key: 'team', Value: 'rl' }, ...tags]), {
      topicArn: TOPIC,
      events: ['Completed', 'Stopped'],
      ruleArn: 'arn:aws:events:us-east-1:111122223333:rule/sm-pysdk-job-notif-12345678',
    });
    assert.equal(notificationRouteOf([{ Key: 'team', Value: 'rl' }]), undefined);
  });

  it('fails a denied rules probe naming the five permissions, warns when the topic could not be read', () => {
    const n = { SnsTopicArn: TOPIC };
    const denied = checkNotifications({ notifications: n, topic: 'found', rules: { denied: 'AccessDenied' } }, 'us-east-1');
    assert.equal(denied.level, 'fail');
    assert.match(denied.fix!, /events:PutRule, events:PutTargets, events:ListRules, events:RemoveTargets and events:DeleteRule/);
    const unread = checkNotifications({ notifications: n, topic: { notChecked: 'throttled' }, rules: 'allowed' }, 'us-east-1');
    assert.equal(unread.level, 'warn');
    assert.match(unread.message, /not checked \(throttled\)/);
    assert.equal(unread.key, 'Notifications');
  });
});
