import { PACKS } from '../environments/registry';
import { JsonTooDeep, parseOutsideJson } from '../text/json';
import type { EnvironmentPack, PackLogLine } from '../environments/types';
import type { Transcript, TranscriptStatus } from '../transcript/model';
import { rewardOf, transcriptFromRecord } from '../transcript/record';
import { tracesIn, transcriptFromTrace } from './traces';

/** What one log line holds for the replay: a whole rollout, or a piece of the rebuild from SDK and tool-output lines. */
export type RolloutLine =
  /** A rollout record, or a whole trace on one line (JSON Lines of traces). */
  | { kind: 'transcript'; transcript: Transcript }
  /** `UpdateReward: trajectory_id=X rewards=[r, …]` from the SDK's rollout decorator. */
  | { kind: 'reward'; trajectoryId: string; reward: number; perTurn?: number[]; session?: string }
  /** `CompleteRollout: trajectory_id=X status=S`, `Rollout error: trajectory_id=X error=E`, and the SDK's 404 and "already in terminal status, skipping" warnings. */
  | { kind: 'status'; trajectoryId: string; status: TranscriptStatus; error?: string }
  /** A tool call or game end an environment pack read from its own output text (Wordle's feedback lines). */
  | { kind: 'pack'; pack: EnvironmentPack; read: PackLogLine; session?: string }
  /** JSON nested past MAX_JSON_DEPTH: not read, and named in the skipped-line notes. */
  | { kind: 'tooDeep' };

const TOO_DEEP_LINE: readonly RolloutLine[] = Object.freeze([{ kind: 'tooDeep' } as const]);
/** What parseJson gives for a value nested past the limit. */
const TOO_DEEP = Symbol('too deep');

const NOTHING: readonly RolloutLine[] = Object.freeze([]);
const UPDATE_REWARD = /UpdateReward: trajectory_id=(\S+) rewards=\[([^\]]*)\]/;
const COMPLETE = /CompleteRollout: trajectory_id=(\S+) status=(\w+)/;
const ROLLOUT_ERROR = /Rollout error: trajectory_id=(\S+) error=(.*)$/;
// The SDK's warnings when the Job Runtime answers 404 or says the trajectory already ended (sagemaker/train/rft/feedback.py).
const SDK_NOT_FOUND = /(CompleteRollout|UpdateReward) 404: trajectory (\S+) not found/;
const SDK_SKIPPED = /(CompleteRollout|UpdateReward): trajectory (\S+) already in terminal status, skipping/;
const PRETTY_MESSAGE = /^\s*"message"\s*:\s*("(?:[^"\\]|\\.)*")\s*,?\s*$/;

/**
 * Everything a log line holds: a bare record or trace, one after a timestamp/level prefix, one inside an AgentCore JSON
 * line's `message`, a CloudWatch export (`{"events":[…]}`, or its pretty-printed `"message": …` lines), an
 * `aws logs tail` line, the SDK's INFO lines and a pack's tool-output text. Never throws; garbage gives nothing.
 */
export function parseRolloutLine(line: string, session?: string): readonly RolloutLine[] {
  // Fast path for the common case: the agent's record as a bare JSON line.
  if (line.charCodeAt(0) === 123) {
    const value = parseJson(line);
    if (value === TOO_DEEP) return TOO_DEEP_LINE;
    if (value !== undefined) return fromJson(value, session);
  }
  const brace = line.indexOf('{');
  if (brace > 0) {
    const value = parseJson(line.slice(brace));
    if (value === TOO_DEEP) return TOO_DEEP_LINE;
    if (value !== undefined) return fromJson(value, session);
  }
  if (line.includes('"message"')) {
    const m = PRETTY_MESSAGE.exec(line);
    const message = m ? parseJson(m[1]) : undefined;
    if (typeof message === 'string') return parseMessage(message, session);
  }
  return fromText(line, session);
}

function parseJson(text: string): unknown {
  const end = text.trimEnd();
  const last = end.charCodeAt(end.length - 1);
  // Only attempt what can be a JSON object or string: a throw per garbage line is the slow part.
  if (last !== 125 && last !== 34) return undefined;
  try {
    return parseOutsideJson(end);
  } catch (error) {
    return error instanceof JsonTooDeep ? TOO_DEEP : undefined;
  }
}

function parseMessage(message: string, session: string | undefined): readonly RolloutLine[] {
  if (!message.includes('\n')) return parseRolloutLine(message, session);
  return message.split('\n').flatMap((part) => parseRolloutLine(part, session));
}

function fromJson(value: unknown, session: string | undefined): readonly RolloutLine[] {
  if (!value || typeof value !== 'object') return NOTHING;
  const record = transcriptFromRecord(value);
  if (record) return [{ kind: 'transcript', transcript: record }];
  const v = value as Record<string, unknown>;
  if (Array.isArray(v.events)) {
    return v.events.flatMap((event: unknown) => {
      const e = event as Record<string, unknown> | null;
      return e && typeof e.message === 'string' ? parseMessage(e.message, session) : [];
    });
  }
  if (typeof v.message === 'string') {
    const id = typeof v.sessionId === 'string' ? v.sessionId : typeof v.requestId === 'string' ? v.requestId : session;
    return parseMessage(v.message, id);
  }
  if (v.spans !== undefined || v.trace_info !== undefined || v.traces !== undefined || v.trace !== undefined) {
    const out: RolloutLine[] = [];
    for (const trace of tracesIn(v)) {
      const transcript = transcriptFromTrace(trace);
      if (transcript) out.push({ kind: 'transcript', transcript });
    }
    return out;
  }
  return NOTHING;
}

function fromText(line: string, session: string | undefined): readonly RolloutLine[] {
  if (line.includes(' 404: trajectory ')) {
    const m = SDK_NOT_FOUND.exec(line);
    if (m)
      return [
        {
          kind: 'status',
          trajectoryId: m[2],
          status: 'error',
          error: `${m[1]} 404: the Job Runtime did not know trajectory ${m[2]}, so its result was not recorded (the job had moved on, or the call came from outside a job)`,
        },
      ];
  }
  if (line.includes('already in terminal status')) {
    const m = SDK_SKIPPED.exec(line);
    if (m) return [{ kind: 'status', trajectoryId: m[2], status: 'skipped' }];
  }
  if (line.includes('UpdateReward')) {
    const m = UPDATE_REWARD.exec(line);
    const { reward, perTurn } = m ? rewardOf(m[2].split(',').map((x) => x.trim())) : {};
    return m && reward !== undefined ? [{ kind: 'reward', trajectoryId: m[1], reward, perTurn, session }] : NOTHING;
  }
  if (line.includes('CompleteRollout')) {
    const m = COMPLETE.exec(line);
    return m ? [{ kind: 'status', trajectoryId: m[1], status: m[2] === 'failed' || m[2] === 'error' ? 'error' : 'completed' }] : NOTHING;
  }
  if (line.includes('Rollout error')) {
    const m = ROLLOUT_ERROR.exec(line);
    return m ? [{ kind: 'status', trajectoryId: m[1], status: 'error', error: m[2].trim() }] : NOTHING;
  }
  for (const pack of PACKS) {
    const read = pack.readLogLine?.(line);
    if (read) return [{ kind: 'pack', pack, read, session }];
  }
  return NOTHING;
}
