/** The games the emulator's agents play: chosen by the job's runtime. */
export type EnvironmentName = 'wordle' | 'refund';

// One rollout as the model and its tools lived it, whatever the environment: what the traces, the metrics and the
// chat completions are written from.

/** One tool call: arguments as the model wrote them (JSON text), the tool's result as the agent passed it back. */
export interface EpisodeCall {
  name: string;
  arguments: string;
  result: string;
}

/** One model call: its reasoning and the tool calls it made (none for a final answer). */
export interface EpisodeTurn {
  thinking: string;
  calls: EpisodeCall[];
}

export interface Episode {
  /** The first user message the agent sent: the task's prompt and the agent's own per-rollout framing. */
  prompt: string;
  turns: EpisodeTurn[];
  /** In [0, 1] for partial-credit environments; Wordle's reference reward may be negative or above 1. */
  reward: number;
  /** Reward at or above the success threshold (1.0), or the environment's own win. */
  solved: boolean;
  /** The environment accepted at least one tool call. */
  valid: boolean;
}
