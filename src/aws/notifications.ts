import type { EventBridgeClient, PutTargetsCommandInput } from '@aws-sdk/client-eventbridge';
import type { SNSClient } from '@aws-sdk/client-sns';
import { sdk } from './sdkLoader';

/** GetTopicAttributes: throws NotFound when the topic does not exist (the SDK's topic check). */
export async function getTopicAttributes(client: SNSClient, topicArn: string, signal?: AbortSignal): Promise<Record<string, string>> {
  const out = await client.send(new (sdk().GetTopicAttributesCommand)({ TopicArn: topicArn }), { abortSignal: signal });
  return out.Attributes ?? {};
}

/** One ListRules call of at most one rule: the SDK's probe that the caller may manage EventBridge rules. */
export async function probeRules(
  client: EventBridgeClient,
  namePrefix: string,
  eventBusName?: string,
  signal?: AbortSignal,
): Promise<void> {
  await client.send(new (sdk().ListRulesCommand)({ NamePrefix: namePrefix, EventBusName: eventBusName, Limit: 1 }), {
    abortSignal: signal,
  });
}

/** PutRule (creates or updates, enabled) and returns the rule's ARN. */
export async function putRule(
  client: EventBridgeClient,
  rule: { name: string; eventPattern: string; description: string; eventBusName?: string },
  signal?: AbortSignal,
): Promise<string> {
  const out = await client.send(
    new (sdk().PutRuleCommand)({
      Name: rule.name,
      EventPattern: rule.eventPattern,
      State: 'ENABLED',
      Description: rule.description,
      EventBusName: rule.eventBusName,
    }),
    { abortSignal: signal },
  );
  return out.RuleArn ?? '';
}

/** PutTargets; a target the service refused is an error naming it. */
export async function putTargets(client: EventBridgeClient, input: PutTargetsCommandInput, signal?: AbortSignal): Promise<void> {
  const out = await client.send(new (sdk().PutTargetsCommand)(input), { abortSignal: signal });
  const failed = out.FailedEntries?.[0];
  if (failed)
    throw new Error(`EventBridge refused target ${failed.TargetId ?? ''}: ${failed.ErrorCode ?? ''} ${failed.ErrorMessage ?? ''}`.trim());
}

/** The targets of a rule, as ListTargetsByRule gives them (one page: the SDK's rules have one target). */
export async function listTargetsByRule(client: EventBridgeClient, rule: string, eventBusName?: string, signal?: AbortSignal) {
  const out = await client.send(new (sdk().ListTargetsByRuleCommand)({ Rule: rule, EventBusName: eventBusName }), { abortSignal: signal });
  return out.Targets ?? [];
}

/** RemoveTargets then DeleteRule, as the SDK's delete_notification_rule does. */
export async function deleteRule(client: EventBridgeClient, rule: string, eventBusName?: string, signal?: AbortSignal): Promise<void> {
  const ids = (await listTargetsByRule(client, rule, eventBusName, signal)).flatMap((t) => (t.Id ? [t.Id] : []));
  if (ids.length)
    await client.send(new (sdk().RemoveTargetsCommand)({ Rule: rule, Ids: ids, EventBusName: eventBusName }), { abortSignal: signal });
  await client.send(new (sdk().DeleteRuleCommand)({ Name: rule, EventBusName: eventBusName }), { abortSignal: signal });
}
