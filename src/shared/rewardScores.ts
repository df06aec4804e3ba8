import type { Transcript } from '../core/transcript/model';
import type { ViewDescriptor, ViewProtocol } from '../webview-kit/channel';

/** Typed messages between the reward scores view (webview/rewardScores.ts) and the extension (src/features/reward/). */

/** One scenario as the view draws it: its score (absent when the reward could not score it) and its transcript. */
export interface ScoredScenarioView {
  name: string;
  reward?: number;
  /** The named parts the reward returned beside the total (outcome, shaping, …). */
  components?: Record<string, number>;
  finished?: boolean;
  /** Why the reward could not score it. */
  failure?: string;
  /** Enriched by the environment pack that recognizes it, so the board's renderer for that pack draws it. */
  transcript: Transcript;
}

export interface RewardScoresState {
  /** The scenario file, or the Python file whose environment offers the scenarios, relative to the workspace. */
  source: string;
  /** The scenarios are the environment's, not a saved file's (the view offers to save them). */
  offered: boolean;
  /** Scoring now (the files changed, or the view just opened). */
  loading: boolean;
  /** `SupportGame in support_env.py:6`: what was scored. */
  reward?: string;
  scenarios: ScoredScenarioView[];
  /** Each expectation; `also`: the further pairs that break an invariant over many. */
  expectations: { name: string; ok: boolean; detail: string; also?: string[] }[];
  stubbed: string[];
  /** Why nothing could be scored (the file's problem, a syntax error, a timeout). */
  failure?: string;
}

/** The reward scores of one scenario file (or one Python file's offered scenarios). */
export const REWARD_SCORES_VIEW: ViewDescriptor = { viewType: 'mtrl.rewardScores', pageTitle: 'Reward scores', script: 'rewardScores.js' };

export interface RewardScoresProtocol extends ViewProtocol {
  requests: Record<never, never>;
  toPage: { state: RewardScoresState };
  toHost: {
    /** Save the offered scenarios as a scenario file beside the reward. */
    save: undefined;
  };
}
