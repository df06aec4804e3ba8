import type { PackAgentAdvice } from '../types';

/** A game that never reached the model (the smoke test has no job behind it) scores this in the Wordle sample. */
const NO_PLAY_REWARD = -1.5;

/** What the smoke test and the agent lint add for a Wordle agent; other tasks get only the SDK contract. */
export const wordleAgentAdvice: PackAgentAdvice = {
  inSource: (source) => /\bguess_word\b/.test(source),
  // The sample logs "0 guess(es) played" and names its `guess_word` tool.
  inLogs: (lines) => lines.some((l) => /guess\(es\) played|\bguess_word\b/.test(l)),
  noPlayReward: NO_PLAY_REWARD,
  noPlayCheck: `Wordle: reward ${NO_PLAY_REWARD} for a game never played`,
  noPlayDetail: `A Wordle game that never reached the model scores ${NO_PLAY_REWARD}.`,
  noPlayFix: `With no job behind it the agent cannot reach the model, so a Wordle game with no valid guess must score ${NO_PLAY_REWARD}. Check the reward for the "never played" case and that the agent does not call another model.`,
  lintAdvice: `The Wordle sample returns ${NO_PLAY_REWARD} when no valid guess was played.`,
};
