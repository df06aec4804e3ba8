import type { CheckResult } from './checkResult';

/**
 * Where a job's state changes go, as the SDK's trainer takes them (`notifications={sns_topic_arn, events,
 * event_bus_arn, job_name_prefix}`). Not a CreateJob member: the SDK makes an EventBridge rule with the topic as
 * target, and so does the launch; the job file keeps it beside the request, like Budget.
 */
export interface JobNotifications {
  SnsTopicArn: string;
  /** Default Completed, Failed, Stopped. */
  Events?: string[];
  /** The bus the rule lives on; the account's default bus when absent. */
  EventBusArn?: string;
  /** Only jobs whose name starts with it; every job when absent. */
  JobNamePrefix?: string;
}

/** The SDK's `_VALID_EVENTS` and `_DEFAULT_EVENTS` (common_utils/notifications.py). */
const NOTIFICATION_EVENTS = ['Completed', 'Failed', 'Stopped', 'InProgress'] as const;
const DEFAULT_EVENTS = ['Completed', 'Failed', 'Stopped'];

/** The SDK's names its rules with this prefix; ListRules on it is its permission probe. */
export const NOTIFICATION_RULE_PREFIX = 'sm-pysdk-job-notif';

const TOPIC_ARN = /^arn:aws[a-z-]*:sns:([a-z0-9-]+):(\d{12}):.+$/;
const BUS_ARN = /^arn:aws[a-z-]*:events:([a-z0-9-]+):\d{12}:event-bus\/[\w.\-/]+$/;
const KEYS = ['SnsTopicArn', 'Events', 'EventBusArn', 'JobNamePrefix'];

/** What may be wrong with it, said once for the job file and the wizard. */
export const NOTIFICATIONS_SHAPE =
  'Notifications must be { "SnsTopicArn": "arn:aws:sns:<region>:<account>:<topic>", "Events": ["Completed", "Failed", "Stopped", "InProgress"], "EventBusArn"?: …, "JobNamePrefix"?: … }.';

/** The sentence every surface shows beside notifications: the SDK's rule pattern is for training jobs. */
export const NOTIFICATIONS_GUESS =
  'The rule matches "SageMaker Training Job State Change" events, as the SDK\'s does; whether MTRL jobs emit them is unknown (a guess), so it may never fire.';

/** The SDK's event normalization: "completed" → "Completed", "inprogress" → "InProgress"; undefined for a name it refuses. */
function normalizedEvent(name: string): string | undefined {
  const lower = name.toLowerCase();
  return NOTIFICATION_EVENTS.find((e) => e.toLowerCase() === lower);
}

/** The events a rule matches: the given ones normalized, or the SDK's default three. */
export function notificationEvents(n: JobNotifications): string[] {
  if (!n.Events?.length) return [...DEFAULT_EVENTS];
  return n.Events.map((e) => normalizedEvent(e) ?? e);
}

/** A job file's optional `Notifications` entry, checked as the SDK checks it; undefined when absent. */
export function notificationsFromJobFile(value: unknown): JobNotifications | { problem: string } | undefined {
  if (value === undefined) return undefined;
  if (!value || typeof value !== 'object' || Array.isArray(value)) return { problem: NOTIFICATIONS_SHAPE };
  const v = value as Record<string, unknown>;
  const unknown = Object.keys(v).find((k) => !KEYS.includes(k));
  if (unknown) return { problem: `Unknown key Notifications.${unknown}. ${NOTIFICATIONS_SHAPE}` };
  if (typeof v.SnsTopicArn !== 'string' || !TOPIC_ARN.test(v.SnsTopicArn))
    return { problem: `Notifications.SnsTopicArn must be an SNS topic ARN such as arn:aws:sns:us-east-1:111122223333:my-topic.` };
  if (v.Events !== undefined && !(Array.isArray(v.Events) && v.Events.every((e) => typeof e === 'string')))
    return { problem: 'Notifications.Events must be a list of event names.' };
  const wrong = (v.Events as string[] | undefined)?.find((e) => !normalizedEvent(e));
  if (wrong) return { problem: `Notifications.Events: "${wrong}" is not an event; use ${NOTIFICATION_EVENTS.join(', ')}.` };
  if (v.EventBusArn !== undefined && (typeof v.EventBusArn !== 'string' || !BUS_ARN.test(v.EventBusArn)))
    return {
      problem: 'Notifications.EventBusArn must be an event bus ARN such as arn:aws:events:us-east-1:111122223333:event-bus/my-bus.',
    };
  if (v.JobNamePrefix !== undefined && (typeof v.JobNamePrefix !== 'string' || v.JobNamePrefix === ''))
    return { problem: 'Notifications.JobNamePrefix must be a non-empty string.' };
  return v as unknown as JobNotifications;
}

/** The region an SNS topic or event bus ARN names. */
export function arnRegion(arn: string): string | undefined {
  return /^arn:aws[a-z-]*:(?:sns|events):([a-z0-9-]+):/.exec(arn)?.[1];
}

/** The text the SDK hashes into its rule name: the same settings give the same rule. */
export function ruleNameSeed(n: JobNotifications): string {
  return `${n.SnsTopicArn}|${[...notificationEvents(n)].sort().join(',')}|${n.JobNamePrefix ?? ''}`;
}

/** The SDK's event pattern: SageMaker training-job state changes with these statuses (and name prefix). */
export function notificationEventPattern(n: JobNotifications): string {
  const detail: Record<string, unknown> = { TrainingJobStatus: notificationEvents(n) };
  if (n.JobNamePrefix) detail.TrainingJobName = [{ prefix: n.JobNamePrefix }];
  return JSON.stringify({ source: ['aws.sagemaker'], 'detail-type': ['SageMaker Training Job State Change'], detail });
}

/** The SDK's SNS target: a JSON message with the job, its status, time, region, account, failure reason and console link. */
export function notificationTarget(ruleName: string, topicArn: string) {
  return {
    Id: `${ruleName}-sns-target`,
    Arn: topicArn,
    InputTransformer: {
      InputPathsMap: {
        job_name: '$.detail.TrainingJobName',
        status: '$.detail.TrainingJobStatus',
        time: '$.time',
        region: '$.region',
        failure_reason: '$.detail.FailureReason',
        account: '$.account',
      },
      InputTemplate:
        '{"Job": "<job_name>", "Status": "<status>", "Time": "<time>", "Region": "<region>", "Account": "<account>", "Failure Reason": "<failure_reason>", "Console": "https://<region>.console.aws.amazon.com/sagemaker/home?region=<region>#/jobs/<job_name>"}',
    },
  };
}

/** Tags on the job that say where its notifications go, so every surface (and another machine) reads them from DescribeJob. */
const TOPIC_TAG = 'mtrl:notification-topic';
const EVENTS_TAG = 'mtrl:notification-events';
const RULE_TAG = 'mtrl:notification-rule';

/** The tags the launch adds: a launch from a saved job file makes them again from its Notifications. */
export function isNotificationTag(key: string): boolean {
  return [TOPIC_TAG, EVENTS_TAG, RULE_TAG].includes(key);
}

export function notificationTags(n: JobNotifications, ruleArn: string): { Key: string; Value: string }[] {
  return [
    { Key: TOPIC_TAG, Value: n.SnsTopicArn },
    // SageMaker tag values allow spaces, not commas.
    { Key: EVENTS_TAG, Value: notificationEvents(n).join(' ') },
    { Key: RULE_TAG, Value: ruleArn },
  ];
}

/** Where a launched job's notifications go, as its tags say. */
export interface NotificationRoute {
  topicArn: string;
  events: string[];
  ruleArn?: string;
}

export function notificationRouteOf(tags: readonly { Key?: string; Value?: string }[] | undefined): NotificationRoute | undefined {
  const tag = (key: string) => tags?.find((t) => t.Key === key)?.Value;
  const topicArn = tag(TOPIC_TAG);
  if (!topicArn) return undefined;
  return { topicArn, events: (tag(EVENTS_TAG) ?? '').split(' ').filter(Boolean), ruleArn: tag(RULE_TAG) };
}

/** A rule ARN's region, bus (undefined: the default bus) and name: `…:rule/<name>` or `…:rule/<bus>/<name>`. */
export function ruleOfArn(arn: string): { region: string; bus?: string; name: string } {
  const [, region = '', path = ''] = /^arn:aws[a-z-]*:events:([a-z0-9-]+):\d{12}:rule\/(.+)$/.exec(arn) ?? [];
  const slash = path.lastIndexOf('/');
  return slash < 0 ? { region, name: path } : { region, bus: path.slice(0, slash), name: path.slice(slash + 1) };
}

/** One line: "Completed, Failed, Stopped → arn:aws:sns:…". */
export function describeNotificationRoute(route: NotificationRoute): string {
  return `${route.events.join(', ') || DEFAULT_EVENTS.join(', ')} → ${route.topicArn}`;
}

/** What the pre-flight found of the topic and the caller's EventBridge access. */
export interface NotificationFacts {
  notifications: JobNotifications;
  topic: 'found' | { missing: string } | { notChecked: string };
  rules: 'allowed' | { denied: string } | { missingBus: string } | { notChecked: string };
}

/** The SDK's checks before it makes the rule: the topic exists in the job's region (its rule's region), the rules can be made. */
export function checkNotifications(facts: NotificationFacts, region: string): CheckResult {
  const n = facts.notifications;
  const key = 'Notifications';
  for (const [what, arn] of [
    ['SNS topic', n.SnsTopicArn],
    ['event bus', n.EventBusArn],
  ] as const) {
    const other = arn ? arnRegion(arn) : undefined;
    if (other && other !== region)
      return {
        check: 'notifications',
        level: 'fail',
        message: `The ${what} ${arn} is in ${other}; the job and its EventBridge rule are in ${region}.`,
        fix: `Use a ${what} in ${region}.`,
        key,
      };
  }
  if (typeof facts.topic === 'object' && 'missing' in facts.topic)
    return {
      check: 'notifications',
      level: 'fail',
      message: `SNS topic not found: ${n.SnsTopicArn} (${facts.topic.missing}).`,
      fix: 'Create the topic, allow events.amazonaws.com to publish to it, or name another.',
      key,
    };
  if (typeof facts.rules === 'object' && 'missingBus' in facts.rules)
    return {
      check: 'notifications',
      level: 'fail',
      message: `Event bus not found: ${n.EventBusArn ?? 'default'} (${facts.rules.missingBus}).`,
      fix: `Create the bus in ${region}, or leave EventBusArn out for the account's default bus.`,
      key,
    };
  if (typeof facts.rules === 'object' && 'denied' in facts.rules)
    return {
      check: 'notifications',
      level: 'fail',
      message: `Cannot make the notification rule: ${facts.rules.denied}`,
      fix: 'The launching identity needs events:PutRule, events:PutTargets, events:ListRules, events:RemoveTargets and events:DeleteRule.',
      key,
    };
  const notChecked = [facts.topic, facts.rules].find((f): f is { notChecked: string } => typeof f === 'object' && 'notChecked' in f);
  const route = describeNotificationRoute({ topicArn: n.SnsTopicArn, events: notificationEvents(n) });
  if (notChecked)
    return { check: 'notifications', level: 'warn', message: `Notifications ${route}: not checked (${notChecked.notChecked}).`, key };
  return { check: 'notifications', level: 'pass', message: `Notifications ${route}. ${NOTIFICATIONS_GUESS}`, key };
}
