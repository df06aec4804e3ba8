import type { Transcript } from './model';

/** Tool calls whose result no model call carried, and the rollouts that hold them. */
export interface ResultsNotSeen {
  calls: number;
  rollouts: number;
}

/** Counts the tool calls marked `resultNotSeen`; undefined when every result was seen. */
export function resultsNotSeen(transcripts: readonly Transcript[]): ResultsNotSeen | undefined {
  let calls = 0;
  let rollouts = 0;
  for (const t of transcripts) {
    const n = t.turns.reduce((s, turn) => s + turn.toolCalls.filter((c) => c.resultNotSeen).length, 0);
    calls += n;
    if (n) rollouts++;
  }
  return calls ? { calls, rollouts } : undefined;
}

/** The warning every surface shows (signal, what-if, board): how many, why, and what it means for a reward. */
export function resultsNotSeenWarning(n: ResultsNotSeen): string {
  const calls = `${n.calls} tool call${n.calls === 1 ? '' : 's'}`;
  const rollouts = `${n.rollouts} rollout${n.rollouts === 1 ? '' : 's'}`;
  return `${calls} in ${rollouts} ${n.calls === 1 ? 'has' : 'have'} no result: the runtime sees a tool's result only in the next model call, and these rollouts ended after their last tool call. A reward that reads tool results cannot be trusted for them; read the agent's returned metrics instead.`;
}
