import { isMarks, isValidWord, markGuess } from '../wordle';

/** One turn of a rollout record: a guess the model made, as the agent logged it. */
export interface RolloutTurn {
  guess: string;
  /** G/Y/X per letter; recomputed from the answer when the record omits it. */
  marks?: string;
  /** False for input that did not use a guess (not 5 letters a–z, or a repeat). Defaults to true. */
  valid?: boolean;
  /** `tool`: a real tool call; `text`: recovered from the model's raw text. */
  source?: 'tool' | 'text';
  /** A guess already played (repetition penalty); computed when absent. */
  repeated?: boolean;
}

/** The rollout record the agent writes as one JSON log line: the contract documented in the README. */
export interface RolloutRecord {
  mtrl_rollout: 1;
  trajectory_id: string;
  job_arn?: string;
  row_id?: string;
  answer: string;
  turns: RolloutTurn[];
  solved: boolean;
  reward: number;
  outcome?: number;
  shaping?: number;
  /** The training step (1-based, as MLflow's metric steps) that ran this rollout: optional, the best evidence of its step. */
  step?: number;
}

/** Where a rollout's step came from, best first: its own record, its MLflow trace, or the service log's step lines by time. */
type StepEvidence = 'record' | 'trace' | 'log';

/** A rollout as the board and the stats see it: a record, or what could be rebuilt from SDK and feedback lines. */
export interface Rollout {
  trajectory_id: string;
  job_arn?: string;
  row_id?: string;
  /** Lower case; absent when rebuilt from lines that never named it. */
  answer?: string;
  turns: NormalTurn[];
  solved: boolean;
  /** Absent when rebuilt from feedback text with no matching `UpdateReward` line. */
  reward?: number;
  outcome?: number;
  shaping?: number;
  /** True when rebuilt from SDK and feedback lines rather than read from a record. */
  rebuilt?: boolean;
  /** Training step; absent when no evidence names it ("step unknown"). */
  step?: number;
  stepFrom?: StepEvidence;
  /** Epoch ms of the log event that completed it, when the source has timestamps. */
  time?: number;
}

/** A turn with its defaults applied. */
interface NormalTurn {
  guess: string;
  marks?: string;
  valid: boolean;
  source: 'tool' | 'text';
  repeated?: boolean;
}

/** Turns read per rollout: the game allows at most 12 tool calls, so more is not a game (and would cost time quadratic in its length). */
export const MAX_RECORD_TURNS = 12;

const finite = (v: unknown): number | undefined => (typeof v === 'number' && Number.isFinite(v) ? v : undefined);
const text = (v: unknown): string | undefined => (typeof v === 'string' && v.length > 0 ? v : undefined);

/** A step as records and traces write it: a non-negative integer, or its decimal string. */
export function stepNumber(v: unknown): number | undefined {
  const n = typeof v === 'string' && /^\d+$/.test(v) ? Number(v) : v;
  return typeof n === 'number' && Number.isInteger(n) && n >= 0 ? n : undefined;
}

/** Applies defaults: valid true, source tool, marks recomputed from the answer, repeats flagged. */
export function normalizeTurns(raw: readonly unknown[], answer: string | undefined): NormalTurn[] {
  const turns: NormalTurn[] = [];
  // At most a dozen turns: an array beats a Set here, and parsing is the hot path.
  const played: string[] = [];
  for (const item of raw) {
    if (!item || typeof item !== 'object') continue;
    const t = item as Record<string, unknown>;
    const guess = typeof t.guess === 'string' ? t.guess : '';
    const turn: NormalTurn = { guess, valid: t.valid !== false && isValidWord(guess), source: t.source === 'text' ? 'text' : 'tool' };
    const word = turn.valid ? guess.toLowerCase() : guess;
    if (t.repeated === true || (turn.valid && played.includes(word))) {
      turn.repeated = true;
      turn.valid = false;
    }
    if (turn.valid) {
      played.push(word);
      if (isMarks(t.marks)) turn.marks = t.marks;
      else if (answer) turn.marks = markGuess(word, answer);
    }
    turns.push(turn);
  }
  return turns;
}

/** A parsed JSON object as a rollout, when it carries the `mtrl_rollout` marker and the required fields; else undefined. */
export function rolloutFromRecord(value: unknown): Rollout | undefined {
  if (!value || typeof value !== 'object') return undefined;
  const r = value as Record<string, unknown>;
  if (r.mtrl_rollout === undefined) return undefined;
  const reward = finite(r.reward);
  // A record without an id is still a rollout: the collector names it by position.
  const id = typeof r.trajectory_id === 'string' || typeof r.trajectory_id === 'number' ? String(r.trajectory_id) : '';
  if (reward === undefined) return undefined;
  const answer = isValidWord(r.answer) ? r.answer.toLowerCase() : undefined;
  const turns = normalizeTurns(Array.isArray(r.turns) ? r.turns.slice(0, MAX_RECORD_TURNS) : [], answer);
  const rollout: Rollout = {
    trajectory_id: id,
    answer,
    turns,
    solved: typeof r.solved === 'boolean' ? r.solved : turns.some((t) => t.marks === 'GGGGG'),
    reward,
  };
  const jobArn = text(r.job_arn);
  if (jobArn) rollout.job_arn = jobArn;
  const rowId = typeof r.row_id === 'number' ? String(r.row_id) : text(r.row_id);
  if (rowId) rollout.row_id = rowId;
  const outcome = finite(r.outcome);
  if (outcome !== undefined) rollout.outcome = outcome;
  const shaping = finite(r.shaping);
  if (shaping !== undefined) rollout.shaping = shaping;
  const step = stepNumber(r.step);
  if (step !== undefined) {
    rollout.step = step;
    rollout.stepFrom = 'record';
  }
  return rollout;
}

/** Guesses that counted: valid, not repeated. */
export function scoredGuesses(rollout: Pick<Rollout, 'turns'>): number {
  let n = 0;
  for (const t of rollout.turns) if (t.valid && !t.repeated) n++;
  return n;
}

/** solved, lost (played at least one valid guess) or no-play (never a valid guess). */
export type RolloutOutcome = 'solved' | 'lost' | 'no-play';

export function outcomeOf(rollout: Pick<Rollout, 'turns' | 'solved'>): RolloutOutcome {
  if (rollout.solved) return 'solved';
  return scoredGuesses(rollout) > 0 ? 'lost' : 'no-play';
}
