import type { CanonicalGame } from '../reward/invariants';
import type { EnvironmentFacts, ToolCall, Transcript } from '../transcript/model';

/**
 * What one environment (Wordle, a support game, SQL, …) knows beyond the generic transcript.
 * A new environment is one folder under core/environments and one line in the registry.
 */
export interface EnvironmentPack {
  /** Stable id: `wordle`; the board picks its renderer by it. */
  id: string;
  /** True when this transcript was played in this environment (e.g. Wordle: a `guess_word` tool with feedback results). */
  recognizes(transcript: Transcript): boolean;
  /** What the pack adds to a transcript it recognizes. */
  enrich(transcript: Transcript): EnvironmentFacts;
  /** Reads a tool call back from a log line when the agent logs no transcript (Wordle: its feedback lines). */
  readLogLine?(line: string): PackLogLine | undefined;
  /** Tool calls one rollout allows: a rebuilt rollout ends there. */
  maxToolCalls?: number;
  /** Summary fields in the pack's words for `mtrl rollouts --json` (Wordle: `guesses_to_solve`). */
  summary?(transcripts: readonly Transcript[]): Record<string, unknown>;
  /** What the smoke test and the agent lint add for an agent that plays here (Wordle: -1.5 for a game never played). */
  agentAdvice?: PackAgentAdvice;
  /** The reward preview's scripted games for a reward written for this environment (Wordle: solves, losses, no-play). */
  rewardPreview?: PackRewardPreview;
}

/** One log line as a pack reads it: a tool call and its output, and whether it starts or ends a rollout. */
export interface PackLogLine {
  call?: ToolCall;
  /** A move that counted (a new rollout starts only after one). */
  counts?: boolean;
  /** The first move of a rollout: an open rollout that already counted a move ends before it. */
  starts?: boolean;
  ends?: boolean;
  /** What the line told about the rollout (Wordle's loss line: the answer). */
  fields?: Record<string, unknown>;
}

/** A pack's word on an agent that plays its environment, for the smoke test and the agent lint. */
export interface PackAgentAdvice {
  /** True when the agent's source shows it plays here (Wordle: a `guess_word` tool). */
  inSource(source: string): boolean;
  /** True when a smoke test's runtime log lines show it. */
  inLogs(lines: readonly string[]): boolean;
  /** The reward of a rollout that never reached the model: a smoke test (no job behind it) must get it back. */
  noPlayReward: number;
  /** The smoke test's check of that reward: its label, its detail, and the fix when the reward differs. */
  noPlayCheck: string;
  noPlayDetail: string;
  noPlayFix: string;
  /** A sentence the agent lint adds to its findings about rewards. */
  lintAdvice: string;
}

/** A pack's side of the reward preview: scripted games for an answer, and how the page draws one move. */
export interface PackRewardPreview {
  defaultAnswer: string;
  /** Why `answer` cannot be this environment's answer (a sentence for the user), or undefined when it can. */
  answerProblem(answer: string): string | undefined;
  /** The games a reward is scored on, with notes on games that could not be what their name says for this answer. */
  games(answer: string): { answer: string; games: CanonicalGame[]; notes: string[] };
  /** One move as tiles, or undefined when it is not a valid move (the page shows it struck out). */
  tiles(move: string, answer: string): PreviewTile[] | undefined;
}

export interface PreviewTile {
  letter: string;
  /** The page colours a tile by it (Wordle: G, Y or X). */
  mark: string;
  /** The mark read aloud: `green`. */
  name: string;
}
