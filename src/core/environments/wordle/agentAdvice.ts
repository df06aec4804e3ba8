/** Wordle's own reward advice for an agent that would fail a rollout; other tasks get only the SDK contract. */
export function wordleRewardAdvice(agentSource: string): string | undefined {
  return /\bguess_word\b/.test(agentSource) ? 'The Wordle sample returns -1.5 when no valid guess was played.' : undefined;
}
