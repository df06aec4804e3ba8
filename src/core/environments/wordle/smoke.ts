/** What the Wordle pack adds to a smoke test: a game that never reached the model scores the no-play reward. */
export const WORDLE_NO_PLAY_REWARD = -1.5;

/** A Wordle agent's smoke-test logs speak of guesses (the sample: "0 guess(es) played", the `guess_word` tool). */
export function looksLikeWordleAgent(logLines: readonly string[]): boolean {
  return logLines.some((l) => /guess\(es\) played|\bguess_word\b/.test(l));
}
