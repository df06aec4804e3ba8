import { parseFeedbackLine, type ParsedTurn } from '../wordle';
import { rolloutFromRecord, type Rollout } from './record';

/** What one log line holds for the replay: a rollout record, or a piece of the fallback rebuild. */
type RolloutLine =
  | { kind: 'record'; rollout: Rollout }
  /** `UpdateReward: trajectory_id=X rewards=[r]` from the SDK's rollout decorator. */
  | { kind: 'reward'; trajectoryId: string; reward: number; session?: string }
  /** A tool feedback line (`Guess n/6: …`, solve, invalid, repeat). */
  | { kind: 'turn'; turn: ParsedTurn; session?: string }
  /** `Out of guesses. The word was X.` */
  | { kind: 'loss'; answer: string; session?: string };

const NOTHING: readonly RolloutLine[] = Object.freeze([]);
const UPDATE_REWARD = /UpdateReward: trajectory_id=(\S+) rewards=\[\s*(-?[0-9.eE+-]+)/;
const LOSS = /Out of guesses\. The word was ([A-Za-z]{5})/;
const PRETTY_MESSAGE = /^\s*"message"\s*:\s*("(?:[^"\\]|\\.)*")\s*,?\s*$/;

/**
 * Everything a log line holds: a bare record, one after a timestamp/level prefix, one inside an AgentCore JSON
 * line's `message`, a CloudWatch export (`{"events":[…]}`, or its pretty-printed `"message": …` lines), an
 * `aws logs tail` line, SDK reward lines and tool feedback text. Never throws; garbage gives nothing.
 */
export function parseRolloutLine(line: string, session?: string): readonly RolloutLine[] {
  // Fast path for the common case: the agent's record as a bare JSON line.
  if (line.charCodeAt(0) === 123) {
    const value = parseJson(line);
    if (value !== undefined) return fromJson(value, session);
  }
  const brace = line.indexOf('{');
  if (brace > 0) {
    const value = parseJson(line.slice(brace));
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
    return JSON.parse(end);
  } catch {
    return undefined;
  }
}

function parseMessage(message: string, session: string | undefined): readonly RolloutLine[] {
  if (!message.includes('\n')) return parseRolloutLine(message, session);
  return message.split('\n').flatMap((part) => parseRolloutLine(part, session));
}

function fromJson(value: unknown, session: string | undefined): readonly RolloutLine[] {
  if (!value || typeof value !== 'object') return NOTHING;
  const rollout = rolloutFromRecord(value);
  if (rollout) return [{ kind: 'record', rollout }];
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
  return NOTHING;
}

function fromText(line: string, session: string | undefined): readonly RolloutLine[] {
  if (line.includes('UpdateReward')) {
    const m = UPDATE_REWARD.exec(line);
    const reward = m ? Number(m[2]) : NaN;
    return m && Number.isFinite(reward) ? [{ kind: 'reward', trajectoryId: m[1], reward, session }] : NOTHING;
  }
  if (line.includes('Out of guesses')) {
    const m = LOSS.exec(line);
    return m ? [{ kind: 'loss', answer: m[1].toLowerCase(), session }] : NOTHING;
  }
  if (!line.includes('uess')) return NOTHING;
  const turn = parseFeedbackLine(line);
  return turn ? [{ kind: 'turn', turn, session }] : NOTHING;
}
