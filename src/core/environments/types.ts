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
