import type { EnvironmentFacts, ToolCall, Transcript } from '../transcript/model';

/** A scenario file as its JSON holds it: what a pack offers and a user saves, read by `scenarioFileOf` in core/reward. */
export interface ScenarioDocument {
  reward: Record<string, unknown>;
  task?: Record<string, unknown>;
  scenarios: Record<string, unknown>;
  expect?: string[];
  invariants?: string[];
}

/** What a pack's summary reads of each rollout (a rollout's facts): its pack, the threshold's verdict, the moves counted. */
export interface SummarizedRollout {
  pack: string | undefined;
  solved: boolean;
  moves: number;
  /** The pack counted the moves (`env.moves`); else `moves` are the tool calls. */
  packMoves: boolean;
}

/**
 * What one environment (Wordle, a support game, SQL, …) knows beyond the generic transcript.
 * A new environment is one folder under core/environments and one line in the registry.
 */
export interface EnvironmentPack {
  /** Stable id: `wordle`; the board picks its renderer by it. */
  id: string;
  /** True when this transcript was played in this environment (e.g. its own tool, with results in its own words). */
  recognizes(transcript: Transcript): boolean;
  /** What the pack adds to a transcript it recognizes. */
  enrich(transcript: Transcript): EnvironmentFacts;
  /** Reads a tool call back from a log line when the agent logs no transcript (Wordle: its feedback lines). */
  readLogLine?(line: string): PackLogLine | undefined;
  /** Tool calls one rollout allows: a rebuilt rollout ends there. */
  maxToolCalls?: number;
  /** Summary fields in the pack's words for `mtrl rollouts --json` (Wordle: `guesses_to_solve`). */
  summary?(rollouts: readonly SummarizedRollout[]): Record<string, unknown>;
  /** What the smoke test and the agent lint add for an agent that plays here (Wordle: -1.5 for a game never played). */
  agentAdvice?: PackAgentAdvice;
  /** The dataset check's word on this environment's tasks (a fixed answer form, answers as the tasks). */
  datasetChecks?: PackDatasetChecks;
  /**
   * The scenario file (as its JSON document) this environment offers for a reward written in its own convention in
   * `source`, so a Python file is previewed without one; `file` is the Python file's name. Undefined when it is not one.
   */
  rewardScenarios?(source: string, file: string): ScenarioDocument | undefined;
  /** Ways a rollout goes wrong in this environment's terms, found by `mtrl scan` beside the generic kinds. */
  scanners?: readonly PackScanner[];
}

/** A pack's scan of a rollout it enriched: a kind in the environment's words, its rule, and where a rollout shows it. */
export interface PackScanner {
  kind: string;
  /** The rule in one sentence, for the docs and `mtrl scan --help`. */
  rule: string;
  /** The 0-based turn that shows it and a short quote; undefined when the rollout does not. */
  scan(transcript: Transcript): { turn?: number; evidence?: string } | undefined;
}

/** A pack's checks of its tasks in a training dataset, applied by `mtrl validate` and the dataset diagnostics. */
export interface PackDatasetChecks {
  /** The dataset convention (`--convention`, `mtrl.datasets.convention`) that applies them to every row. */
  convention: string;
  /**
   * Under the `auto` convention: a task whose prompt text, or else whose id, looks like this environment's gets them.
   * `lower` is the prompt lower-cased (`toLowerCase`, done once per row for every pack), so a plain `includes` finds a word in any case.
   */
  promptLooksLike(lower: string): boolean;
  idLooksLike(id: string): boolean;
  /** Why an answer cannot be this environment's, as a sentence naming the fix; undefined when it can. */
  answerProblem(answer: string): string | undefined;
  /** The rows share one prompt and differ by answer: a repeated prompt is no duplicate task, a repeated answer is. */
  answerIsTheTask: boolean;
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
  /** True when the agent's source shows it plays here (it defines the environment's tool). */
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
