/** What every rollout reader produces and every view reads: one multi-turn rollout of any agent. */

/** One tool call the model made: arguments and result parsed when they are JSON text, kept as text otherwise. */
export interface ToolCall {
  name: string;
  arguments: unknown;
  result?: unknown;
  /** The tool's or the agent's error for this call, when it failed. */
  error?: string;
  /** The model wrote this call as text (no tool-call message) and the agent recovered it from there. */
  asText?: true;
  /** The rollout ended before its result was seen: a runtime sees a tool's result only in the next model call, and the agent made none. */
  resultNotSeen?: true;
}

/** One model call: what the model thought and said, and the tools it called. */
export interface Turn {
  thinking?: string;
  text?: string;
  toolCalls: ToolCall[];
  /** This turn's reward when the agent reported a list of per-turn rewards. */
  reward?: number;
  /** Why the model stopped this reply, as its API said (`stop`, `length`, `max_tokens`, `tool_calls`), when the source says. */
  finishReason?: string;
}

/** How the rollout ended, as the SDK reports it: completed with a reward, failed (reward 0), or skipped (already processed). */
export type TranscriptStatus = 'completed' | 'error' | 'skipped';

/** The task a rollout played: the dataset row when known, else the first user message. */
export interface Task {
  /** The first user message the agent sent, or the row's prompt. */
  prompt: string;
  /** The dataset row the rollout belongs to, when it was matched. */
  row?: Record<string, unknown>;
  /** 0-based index of that row in the training data. */
  rowIndex?: number;
  /** The row's own id when the source names one (a record's `row_id`). */
  id?: string;
}

/**
 * Where a rollout's step came from, best first: its own record, its trace, the service log's step lines, or time against
 * step boundaries; `local-check` for the rollouts of one local check, one batch of one known policy (step 1).
 */
export type StepEvidence = 'record' | 'trace' | 'log' | 'time' | 'local-check';

/** Where the rollout itself was read from. */
export type TranscriptSource = 'record' | 'trace' | 'log';

export interface Transcript {
  /** The trajectory id. */
  id: string;
  jobArn?: string;
  task: Task;
  /** GRPO group: rollouts of the same task in the same step share it. */
  groupKey: string;
  /** Training step (1-based, as MLflow's metric steps); absent: step unknown. */
  step?: number;
  stepFrom?: StepEvidence;
  /** The scalar reward (the sum when per-turn rewards were reported); absent when none arrived. */
  reward?: number;
  status: TranscriptStatus;
  error?: string;
  /** The `metrics` object the agent returned with its reward. */
  metrics?: Record<string, unknown>;
  turns: Turn[];
  /** Epoch ms when the rollout completed, when the source has times. */
  time?: number;
  source: TranscriptSource;
  /** What an environment pack recognized and added (e.g. Wordle's answer, tiles, solved). */
  env?: EnvironmentFacts;
  /** Reward ≥ the job's success threshold (core/rollouts/verdict.ts); set when the rollout is prepared for a view. */
  solved?: boolean;
  /** True when rebuilt from SDK and tool-output lines rather than read whole. */
  rebuilt?: boolean;
  /** What the source said beyond this model (a record's `answer`, `solved`, a loss line's answer): packs read their own. */
  fields?: Record<string, unknown>;
}

/** A pack's additions to a transcript; `pack` names the pack (and so the board's renderer). */
export interface EnvironmentFacts {
  pack: string;
  /** Solved in the pack's own terms (Wordle: all green), shown beside the threshold's verdict where they differ. */
  solved?: boolean;
  /** A short label for the task in the pack's words (Wordle: the answer). */
  label?: string;
  /** Pack-specific data for its renderer (JSON-serializable). */
  data?: unknown;
  /** Moves that counted, in the pack's terms (Wordle: valid words played); absent: the tool calls. */
  moves?: number;
}
