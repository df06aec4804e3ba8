import { filterMatcher, lowerBound, type LogStreamSource } from './logStreams';
import { ServiceError } from './protocol';
import { hashSeed } from './random';
import { ACCOUNT, type LogGroupView, type World } from './world';

type Input = Record<string, unknown>;

/** Events one FilterLogEvents call examines before answering with a nextToken, as the service does on long scans. */
const SCAN_BUDGET = 10_000;

const encode = (value: unknown) => Buffer.from(JSON.stringify(value)).toString('base64url');
function decode<T>(token: unknown): T | undefined {
  if (token === undefined || token === null) return undefined;
  try {
    return JSON.parse(Buffer.from(String(token), 'base64url').toString('utf8')) as T;
  } catch {
    throw new ServiceError('InvalidParameterException', 'The specified nextToken is invalid.');
  }
}

function groupOf(world: World, input: Input, now: number, region: string): LogGroupView {
  const name = String(input.logGroupName ?? input.logGroupIdentifier ?? '');
  const group = world.logGroups(now, region).get(name);
  if (!group) throw new ServiceError('ResourceNotFoundException', 'The specified log group does not exist.');
  return group;
}

function limitOf(input: Input, max: number, fallback: number): number {
  const limit = input.limit === undefined ? fallback : Number(input.limit);
  if (!Number.isInteger(limit) || limit < 1 || limit > max)
    throw new ServiceError(
      'InvalidParameterException',
      `1 validation error detected: Value '${String(input.limit)}' at 'limit' failed to satisfy constraint: Member must have value between 1 and ${max}`,
    );
  return limit;
}

const groupArn = (region: string, name: string) => `arn:aws:logs:${region}:${ACCOUNT}:log-group:${name}`;

type Handler = (world: World, input: Input, now: number, region: string) => unknown;

/** The CloudWatch Logs operations the emulator answers (JSON 1.1, target `Logs_20140328.<Operation>`): reads only. */
const OPERATIONS: Record<string, Handler> = {
  DescribeLogGroups: (world, input, now, region) => {
    const prefix = String(input.logGroupNamePrefix ?? '');
    const all = [...world.logGroups(now, region).values()]
      .filter((g) => g.name.startsWith(prefix))
      .sort((a, b) => (a.name < b.name ? -1 : 1));
    const start = decode<number>(input.nextToken) ?? 0;
    const limit = limitOf(input, 50, 50);
    return {
      logGroups: all.slice(start, start + limit).map((g) => ({
        logGroupName: g.name,
        creationTime: g.created,
        arn: `${groupArn(region, g.name)}:*`,
        logGroupArn: groupArn(region, g.name),
        storedBytes: 0,
        logGroupClass: 'STANDARD',
      })),
      nextToken: start + limit < all.length ? encode(start + limit) : undefined,
    };
  },
  DescribeLogStreams: (world, input, now, region) => {
    const group = groupOf(world, input, now, region);
    if (input.logStreamNamePrefix && input.orderBy === 'LastEventTime')
      throw new ServiceError('InvalidParameterException', 'Cannot order by LastEventTime with a logStreamNamePrefix.');
    let streams = group.streams.filter((s) => s.name.startsWith(String(input.logStreamNamePrefix ?? '')));
    const last = (s: LogStreamSource) => (s.count ? s.timeAt(s.count - 1) : s.created);
    streams = [...streams].sort(input.orderBy === 'LastEventTime' ? (a, b) => last(a) - last(b) : (a, b) => (a.name < b.name ? -1 : 1));
    if (input.descending === true) streams.reverse();
    const start = decode<number>(input.nextToken) ?? 0;
    const limit = limitOf(input, 50, 50);
    return {
      logStreams: streams.slice(start, start + limit).map((s) => ({
        logStreamName: s.name,
        creationTime: s.created,
        firstEventTimestamp: s.count ? s.timeAt(0) : undefined,
        lastEventTimestamp: s.count ? last(s) : undefined,
        lastIngestionTime: s.count ? last(s) : undefined,
        arn: `${groupArn(region, group.name)}:log-stream:${s.name}`,
        storedBytes: 0,
      })),
      nextToken: start + limit < streams.length ? encode(start + limit) : undefined,
    };
  },
  GetLogEvents: getLogEvents,
  FilterLogEvents: filterLogEvents,
};

/** Every CloudWatch Logs operation served: the routing itself, so the service-model test drives each one. */
export const LOGS_OPERATIONS: readonly string[] = Object.keys(OPERATIONS);

/** One CloudWatch Logs call of one region. */
export function logs(world: World, operation: string, input: Input, region: string): unknown {
  if (!Object.hasOwn(OPERATIONS, operation))
    throw new ServiceError('UnknownOperationException', `The emulator does not implement CloudWatch Logs ${operation}.`);
  return OPERATIONS[operation](world, input, world.clock.now(), region);
}

function getLogEvents(world: World, input: Input, now: number, region: string): unknown {
  const group = groupOf(world, input, now, region);
  const stream = group.streams.find((s) => s.name === input.logStreamName);
  if (!stream) throw new ServiceError('ResourceNotFoundException', 'The specified log stream does not exist.');
  const limit = limitOf(input, 10_000, 10_000);
  const from = typeof input.startTime === 'number' ? lowerBound(stream, input.startTime) : 0;
  const to = typeof input.endTime === 'number' ? lowerBound(stream, input.endTime) : stream.count;
  const token = typeof input.nextToken === 'string' ? /^([fb])\/(\d+)$/.exec(input.nextToken) : null;
  if (input.nextToken !== undefined && !token) throw new ServiceError('InvalidParameterException', 'The specified nextToken is invalid.');
  let start: number;
  let end: number;
  if (token?.[1] === 'f' || (!token && input.startFromHead === true)) {
    start = Math.max(from, token ? Number(token[2]) : from);
    end = Math.min(to, start + limit);
  } else {
    end = Math.min(to, token ? Number(token[2]) : to);
    start = Math.max(from, end - limit);
  }
  end = Math.max(start, end);
  const events = [];
  for (let i = start; i < end; i++) {
    const e = stream.at(i);
    events.push({ timestamp: e.timestamp, message: e.message, ingestionTime: e.timestamp });
  }
  return { events, nextForwardToken: `f/${end}`, nextBackwardToken: `b/${start}` };
}

/** Where a scan stopped: at time `t`, after `skip` events of that millisecond (in merged order). */
interface Position {
  t: number;
  skip: number;
}

/** Events of all matching streams merged by time (ties: stream order, then position), as the service returns them. */
function filterLogEvents(world: World, input: Input, now: number, region: string): unknown {
  const group = groupOf(world, input, now, region);
  const names = Array.isArray(input.logStreamNames) ? (input.logStreamNames as string[]) : undefined;
  if (names && input.logStreamNamePrefix)
    throw new ServiceError('InvalidParameterException', 'logStreamNames and logStreamNamePrefix cannot both be specified.');
  const streams = group.streams.filter((s) =>
    names ? names.includes(s.name) : s.name.startsWith(String(input.logStreamNamePrefix ?? '')),
  );
  const limit = limitOf(input, 10_000, 10_000);
  const matches = filterMatcher(typeof input.filterPattern === 'string' ? input.filterPattern : undefined);
  const endTime = typeof input.endTime === 'number' ? input.endTime : Infinity;
  const resume = decode<Position>(input.nextToken);
  const from = Math.max(typeof input.startTime === 'number' ? input.startTime : -Infinity, resume?.t ?? -Infinity);
  const positions = streams.map((s) => (from === -Infinity ? 0 : lowerBound(s, from)));
  let skip = resume?.skip ?? 0;
  let current = resume?.t ?? -Infinity;
  let atCurrent = resume ? resume.skip : 0;
  const events = [];
  let examined = 0;
  for (;;) {
    let next = -1;
    for (let j = 0; j < streams.length; j++) {
      if (positions[j] < streams[j].count && (next < 0 || streams[j].timeAt(positions[j]) < streams[next].timeAt(positions[next])))
        next = j;
    }
    if (next < 0) break;
    const stream = streams[next];
    const i = positions[next];
    const t = stream.timeAt(i);
    if (t > endTime) break;
    if (skip > 0 && t === resume?.t) {
      skip--;
      positions[next]++;
      continue;
    }
    if (events.length >= limit || examined >= SCAN_BUDGET)
      return { events, nextToken: encode({ t: current, skip: atCurrent }), searchedLogStreams: [] };
    positions[next]++;
    examined++;
    atCurrent = t === current ? atCurrent + 1 : 1;
    current = t;
    const e = stream.at(i);
    if (matches(e.message))
      events.push({
        logStreamName: stream.name,
        timestamp: e.timestamp,
        message: e.message,
        ingestionTime: e.timestamp,
        eventId: `${hashSeed(stream.name)}${String(i).padStart(12, '0')}`,
      });
  }
  return { events, searchedLogStreams: [] };
}
