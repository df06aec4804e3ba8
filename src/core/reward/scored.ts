import type { Scenario } from './scenarioFile';

/** A scenario with the score the user's reward gave it. */
export interface ScoredScenario extends Scenario {
  reward: number;
  /** The named parts the reward returned beside its total (outcome, shaping, its metrics), as it returned them. */
  components?: Record<string, number>;
}

export interface ExpectationResult {
  /** The expectation as written, or the invariant's name. */
  name: string;
  ok: boolean;
  /** A sentence with the scores involved; when broken, the pair that breaks it. */
  detail: string;
  /** The scenarios it names, so an editor can point at them. */
  scenarios: string[];
  /** Each pair (or scenario) that breaks an invariant over many, with its own sentence: `mtrl reward --json` `failures[]`. */
  breaks?: { scenarios: string[]; detail: string }[];
}
