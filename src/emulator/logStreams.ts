import { jobState, rolloutTime } from './jobs';
import type { Job } from './jobModel';
import { rolloutOf, type RolloutLines } from './rollouts';

interface LogEvent {
  timestamp: number;
  message: string;
}

/** A log stream as the logs API reads it: events sorted by time, addressed by index, possibly generated on demand. */
export interface LogStreamSource {
  name: string;
  created: number;
  count: number;
  timeAt(i: number): number;
  at(i: number): LogEvent;
}

/** A stream whose events are kept in memory: the smoke-test invocations, anything the emulator writes as it happens. */
export class StoredStream implements LogStreamSource {
  readonly events: LogEvent[] = [];
  constructor(
    readonly name: string,
    readonly created: number,
  ) {}
  get count(): number {
    return this.events.length;
  }
  timeAt(i: number): number {
    return this.events[i].timestamp;
  }
  at(i: number): LogEvent {
    return this.events[i];
  }
  append(timestamp: number, message: string): void {
    this.events.push({ timestamp, message });
  }
}

/** `2026/11/29` of a time: AgentCore names runtime log streams by day. */
export function dayOf(time: number): string {
  return new Date(time).toISOString().slice(0, 10).replace(/-/g, '/');
}

/**
 * The runtime log stream of one job: per finished rollout its record (unless the agent logs none), CompleteRollout and
 * UpdateReward, generated from the job's seed when read, so a 100,000-rollout job costs no memory.
 */
export class JobRolloutStream implements LogStreamSource {
  readonly name: string;
  readonly created: number;
  readonly count: number;
  private readonly perRollout: number;
  private last?: { k: number; lines: RolloutLines };

  constructor(
    private readonly job: Job,
    now: number,
    records = true,
  ) {
    this.name = `${dayOf(job.created)}/[runtime-logs]${job.name}`;
    this.created = job.created;
    // Only the Wordle agent logs a rollout record; the others log the SDK's two lines.
    this.perRollout = records && job.plan.environment === 'wordle' ? 3 : 2;
    this.count = this.perRollout * jobState(job, now).completedRollouts;
  }
  timeAt(i: number): number {
    return rolloutTime(this.job, Math.floor(i / this.perRollout));
  }
  at(i: number): LogEvent {
    const k = Math.floor(i / this.perRollout);
    // Readers go forward line by line: keep the rollout of the last line read.
    if (this.last?.k !== k) this.last = { k, lines: rolloutOf(this.job, k) };
    const lines = this.last.lines.lines;
    // A silent agent's record is not written: its lines are the last ones.
    return { timestamp: this.last.lines.timestamp, message: lines[lines.length - this.perRollout + (i % this.perRollout)] };
  }
}

/** The job's service log stream (`/aws/sagemaker/Job/<Category>`): status transitions and one line per finished step, built only when read. */
export class JobServiceStream implements LogStreamSource {
  readonly name: string;
  readonly created: number;
  private lines?: LogEvent[];

  constructor(
    private readonly job: Job,
    private readonly now: number,
  ) {
    this.name = `${job.name}/algo-1-${job.created}`;
    this.created = job.created;
  }
  get count(): number {
    return this.built().length;
  }
  timeAt(i: number): number {
    return this.built()[i].timestamp;
  }
  at(i: number): LogEvent {
    return this.built()[i];
  }

  private built(): LogEvent[] {
    if (this.lines) return this.lines;
    const { job, now } = this;
    const state = jobState(job, now);
    const lines: LogEvent[] = state.transitions.map((t) => ({
      timestamp: t.StartTime,
      message: `[${t.Status}] ${t.StatusMessage ?? ''}`.trim(),
    }));
    const p = job.plan;
    const steps = Math.floor(state.completedRollouts / p.rolloutsPerStep);
    for (let s = 1; s <= steps; s++) {
      lines.push({
        timestamp: rolloutTime(job, s * p.rolloutsPerStep - 1),
        message: `Step ${(p.firstStep ?? 0) + s}/${(p.firstStep ?? 0) + p.steps}: ${p.rolloutsPerStep} rollouts completed (${s * p.rolloutsPerStep}/${state.totalRollouts})`,
      });
    }
    if (state.failureReason) lines.push({ timestamp: state.endTime ?? now, message: `ERROR ${state.failureReason}` });
    return (this.lines = lines.sort((a, b) => a.timestamp - b.timestamp));
  }
}

/** First index whose time is ≥ t (events are sorted by time). */
export function lowerBound(stream: LogStreamSource, t: number): number {
  let lo = 0;
  let hi = stream.count;
  while (lo < hi) {
    const mid = (lo + hi) >>> 1;
    if (stream.timeAt(mid) < t) lo = mid + 1;
    else hi = mid;
  }
  return lo;
}

/** A CloudWatch filter pattern: terms (all must appear), `?term` (any), `-term` (none), or `{ $.field = value && … }` on JSON lines. */
export function filterMatcher(pattern: string | undefined): (message: string) => boolean {
  const text = (pattern ?? '').trim();
  if (!text) return () => true;
  if (text.startsWith('{')) return jsonMatcher(text);
  const terms = [...text.matchAll(/([?-]?)(?:"([^"]*)"|(\S+))/g)].map((m) => ({ op: m[1], term: m[2] ?? m[3] }));
  const all = terms.filter((t) => !t.op).map((t) => t.term);
  const any = terms.filter((t) => t.op === '?').map((t) => t.term);
  const none = terms.filter((t) => t.op === '-').map((t) => t.term);
  return (m) => all.every((t) => m.includes(t)) && (!any.length || any.some((t) => m.includes(t))) && !none.some((t) => m.includes(t));
}

function jsonMatcher(text: string): (message: string) => boolean {
  const body = text.replace(/^\{|\}$/g, '');
  const tests = body.split('&&').map((part) => {
    const m = /^\s*\$\.([\w.]+)\s*(=|!=)\s*(?:"([^"]*)"|(\S+))\s*$/.exec(part);
    if (!m) return () => false;
    const [, path, op, quoted, bare] = m;
    const expected = quoted ?? bare;
    return (value: unknown) => {
      const actual = path
        .split('.')
        .reduce<unknown>((v, key) => (v && typeof v === 'object' ? (v as Record<string, unknown>)[key] : undefined), value);
      const equal = expected === '*' ? actual !== undefined : String(actual) === expected;
      return op === '=' ? equal : !equal;
    };
  });
  return (message) => {
    if (!message.startsWith('{')) return false;
    try {
      const value: unknown = JSON.parse(message);
      return tests.every((t) => t(value));
    } catch {
      return false;
    }
  };
}
