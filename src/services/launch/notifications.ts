// The SDK's notifications (common_utils/notifications.py `enable_notifications`), done with the same calls: check, then rule and target.
import { createHash } from 'node:crypto';
import type { AwsClients } from '../../aws/clients';
import type { Explainer } from '../../aws/errors';
import { getTopicAttributes, probeRules, putRule, putTargets } from '../../aws/notifications';
import type { CheckResult } from '../../core/jobs/checkResult';
import {
  checkNotifications,
  NOTIFICATION_RULE_PREFIX,
  notificationEventPattern,
  notificationEvents,
  NOTIFICATIONS_GUESS,
  notificationTarget,
  ruleNameSeed,
  type JobNotifications,
  type NotificationFacts,
} from '../../core/jobs/notifications';

/** The SDK's deterministic rule name: the same topic, events and prefix give the same rule, so a second launch updates it. */
export function notificationRuleName(n: JobNotifications): string {
  return `${NOTIFICATION_RULE_PREFIX}-${createHash('sha256').update(ruleNameSeed(n)).digest('hex').slice(0, 8)}`;
}

/** What the launch will make, for `mtrl launch --json`: the rule, its bus, pattern and target, and the guess. */
export function notificationRulePlan(n: JobNotifications) {
  return {
    rule: notificationRuleName(n),
    eventBus: n.EventBusArn ?? 'default',
    topicArn: n.SnsTopicArn,
    events: notificationEvents(n),
    eventPattern: JSON.parse(notificationEventPattern(n)) as unknown,
    note: NOTIFICATIONS_GUESS,
  };
}

const nameOf = (error: unknown) => (error as { name?: string } | undefined)?.name ?? '';

/** The pre-flight line: the topic exists in the job's region (GetTopicAttributes) and the caller may manage rules (ListRules). */
export async function notificationsCheck(
  aws: AwsClients,
  explain: Explainer,
  n: JobNotifications,
  region: string,
  signal?: AbortSignal,
): Promise<CheckResult> {
  const topic = async (): Promise<NotificationFacts['topic']> => {
    try {
      await getTopicAttributes(aws.sns(region), n.SnsTopicArn, signal);
      return 'found';
    } catch (error) {
      signal?.throwIfAborted();
      const { kind, sentence } = explain.explained(error, 'Reading the SNS topic', region);
      if (nameOf(error) === 'NotFoundException' || nameOf(error) === 'NotFound') return { missing: sentence };
      return { notChecked: kind === 'access-denied' ? `permission sns:GetTopicAttributes denied` : sentence };
    }
  };
  const rules = async (): Promise<NotificationFacts['rules']> => {
    try {
      await probeRules(aws.events(region), NOTIFICATION_RULE_PREFIX, n.EventBusArn, signal);
      return 'allowed';
    } catch (error) {
      signal?.throwIfAborted();
      const { kind, sentence } = explain.explained(error, 'Listing EventBridge rules', region);
      if (kind === 'access-denied') return { denied: sentence };
      if (nameOf(error) === 'ResourceNotFoundException') return { missingBus: sentence };
      return { notChecked: sentence };
    }
  };
  const [t, r] = await Promise.all([topic(), rules()]);
  return checkNotifications({ notifications: n, topic: t, rules: r }, region);
}

/** PutRule and PutTargets as the SDK makes them, in the job's region; returns the rule's ARN for the job's tags. */
export async function enableNotifications(aws: AwsClients, n: JobNotifications, region: string, signal?: AbortSignal): Promise<string> {
  const client = aws.events(region);
  const name = notificationRuleName(n);
  const ruleArn = await putRule(
    client,
    {
      name,
      eventPattern: notificationEventPattern(n),
      description: `SageMaker PySDK training job notifications -> ${n.SnsTopicArn}`,
      eventBusName: n.EventBusArn,
    },
    signal,
  );
  await putTargets(client, { Rule: name, EventBusName: n.EventBusArn, Targets: [notificationTarget(name, n.SnsTopicArn)] }, signal);
  return ruleArn;
}
