import { ServiceError } from './protocol';
import { ACCOUNT, type EventRule, type World } from './world';

type Input = Record<string, unknown>;

/** SNS GetTopicAttributes (query protocol): the SDK's topic check. Topics are regional, as the ARN says. */
function getTopicAttributes(world: World, query: URLSearchParams, region: string): Record<string, unknown> {
  const arn = query.get('TopicArn') ?? '';
  if (!world.topics.has(arn) || !arn.startsWith(`arn:aws:sns:${region}:`)) throw new ServiceError('NotFound', 'Topic does not exist', 404);
  const attributes = { TopicArn: arn, Owner: ACCOUNT, DisplayName: '', SubscriptionsConfirmed: '1', SubscriptionsPending: '0' };
  return { Attributes: { entry: Object.entries(attributes).map(([key, value]) => ({ key, value })) } };
}

const SNS_OPERATIONS_BY_NAME: Record<string, (world: World, query: URLSearchParams, region: string) => Record<string, unknown>> = {
  GetTopicAttributes: getTopicAttributes,
};

/** Every SNS operation served (query protocol, `Action=<Operation>`). */
export const SNS_OPERATIONS: readonly string[] = Object.keys(SNS_OPERATIONS_BY_NAME);

export function sns(world: World, operation: string, query: URLSearchParams, region: string): Record<string, unknown> {
  if (!Object.hasOwn(SNS_OPERATIONS_BY_NAME, operation))
    throw new ServiceError('InvalidAction', `The emulator does not implement SNS ${operation}.`);
  return SNS_OPERATIONS_BY_NAME[operation](world, query, region);
}

/** A bus by name or ARN, refused when the region holds no such bus. */
function busOf(world: World, input: Input, region: string): string {
  const given = String(input.EventBusName ?? 'default');
  const name = given.startsWith('arn:') ? given.slice(given.lastIndexOf('/') + 1) : given;
  if (name !== 'default' && !world.eventBuses.has(`${region}/${name}`))
    throw new ServiceError('ResourceNotFoundException', `Event bus ${name} does not exist.`);
  return name;
}

function ruleOf(world: World, input: Input, region: string, key = 'Rule'): EventRule {
  const bus = busOf(world, input, region);
  const rule = world.eventRules.get(`${region}/${bus}/${String(input[key] ?? '')}`);
  if (!rule) throw new ServiceError('ResourceNotFoundException', `Rule ${String(input[key] ?? '')} does not exist on EventBus ${bus}.`);
  return rule;
}

function putRule(world: World, input: Input, region: string): unknown {
  const bus = busOf(world, input, region);
  const name = String(input.Name ?? '');
  if (!/^[.\-_A-Za-z0-9]{1,64}$/.test(name)) throw new ServiceError('ValidationException', `Rule name ${name} is not valid.`);
  try {
    JSON.parse(String(input.EventPattern ?? '{}'));
  } catch {
    throw new ServiceError('InvalidEventPatternException', 'Event pattern is not valid JSON.');
  }
  const key = `${region}/${bus}/${name}`;
  const arn = `arn:aws:events:${region}:${ACCOUNT}:rule/${bus === 'default' ? '' : `${bus}/`}${name}`;
  const kept = world.eventRules.get(key);
  world.eventRules.set(key, {
    name,
    arn,
    bus,
    eventPattern: input.EventPattern as string | undefined,
    state: String(input.State ?? 'ENABLED'),
    description: input.Description as string | undefined,
    targets: kept?.targets ?? new Map(),
  });
  return { RuleArn: arn };
}

function putTargets(world: World, input: Input, region: string): unknown {
  const rule = ruleOf(world, input, region);
  for (const target of (input.Targets as Record<string, unknown>[] | undefined) ?? []) rule.targets.set(String(target.Id), target);
  return { FailedEntryCount: 0, FailedEntries: [] };
}

function listRules(world: World, input: Input, region: string): unknown {
  const bus = busOf(world, input, region);
  const prefix = String(input.NamePrefix ?? '');
  const limit = Number(input.Limit ?? 100);
  const start = Number(input.NextToken ?? 0);
  const inRegion = [...world.eventRules.entries()]
    .filter(([key, r]) => key.startsWith(`${region}/${bus}/`) && r.name.startsWith(prefix))
    .map(([, r]) => r)
    .sort((a, b) => (a.name < b.name ? -1 : 1));
  const page = inRegion.slice(start, start + limit);
  return {
    Rules: page.map((r) => ({
      Name: r.name,
      Arn: r.arn,
      EventPattern: r.eventPattern,
      State: r.state,
      Description: r.description,
      EventBusName: r.bus,
    })),
    ...(start + limit < inRegion.length && { NextToken: String(start + limit) }),
  };
}

function listTargetsByRule(world: World, input: Input, region: string): unknown {
  return { Targets: [...ruleOf(world, input, region).targets.values()] };
}

function removeTargets(world: World, input: Input, region: string): unknown {
  const rule = ruleOf(world, input, region);
  for (const id of (input.Ids as string[] | undefined) ?? []) rule.targets.delete(id);
  return { FailedEntryCount: 0, FailedEntries: [] };
}

function deleteRule(world: World, input: Input, region: string): unknown {
  const bus = busOf(world, input, region);
  const key = `${region}/${bus}/${String(input.Name ?? '')}`;
  if (world.eventRules.get(key)?.targets.size) throw new ServiceError('ValidationException', "Rule can't be deleted since it has targets.");
  world.eventRules.delete(key);
  return {};
}

const EVENTS_OPERATIONS_BY_NAME: Record<string, (world: World, input: Input, region: string) => unknown> = {
  PutRule: putRule,
  PutTargets: putTargets,
  ListRules: listRules,
  ListTargetsByRule: listTargetsByRule,
  RemoveTargets: removeTargets,
  DeleteRule: deleteRule,
};

/** Every EventBridge operation served (JSON 1.1, target `AWSEvents.<Operation>`). */
export const EVENTS_OPERATIONS: readonly string[] = Object.keys(EVENTS_OPERATIONS_BY_NAME);

export function eventBridge(world: World, operation: string, input: Input, region: string): unknown {
  if (!Object.hasOwn(EVENTS_OPERATIONS_BY_NAME, operation))
    throw new ServiceError('UnknownOperationException', `The emulator does not implement EventBridge ${operation}.`);
  return EVENTS_OPERATIONS_BY_NAME[operation](world, input, region);
}
