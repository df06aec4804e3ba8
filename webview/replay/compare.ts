import type { Transcript, Turn } from '../../src/core/transcript/model';

/**
 * What a turn did, for comparing two rollouts of one task: its tool calls (name, arguments, result, error), or its text
 * when it called none. Thinking is left out: sampled reasoning differs on every turn even when the actions agree.
 */
function actionOf(turn: Turn): string {
  if (!turn.toolCalls.length) return JSON.stringify({ text: turn.text?.trim() ?? '' });
  return JSON.stringify(turn.toolCalls.map((c) => [c.name, canonical(c.arguments), canonical(c.result), c.error ?? null]));
}

/** Object keys sorted, so `{"a":1,"b":2}` and `{"b":2,"a":1}` count as the same arguments. */
function canonical(value: unknown): unknown {
  if (Array.isArray(value)) return value.map(canonical);
  if (value && typeof value === 'object')
    return Object.fromEntries(
      Object.keys(value)
        .sort()
        .map((k) => [k, canonical((value as Record<string, unknown>)[k])]),
    );
  return value ?? null;
}

/** The 0-based index of the first turn where two rollouts act differently (one ending earlier counts), or undefined when they agree throughout. */
export function firstDifference(a: Pick<Transcript, 'turns'>, b: Pick<Transcript, 'turns'>): number | undefined {
  const shared = Math.min(a.turns.length, b.turns.length);
  for (let i = 0; i < shared; i++) if (actionOf(a.turns[i]) !== actionOf(b.turns[i])) return i;
  return a.turns.length === b.turns.length ? undefined : shared;
}

/** Both boards mark the first turn where the two rollouts act differently (none when not comparing). */
export function markFirstDifference(
  player: { transcript?: Transcript; markDifference(turn: number | undefined): void },
  other: { transcript?: Transcript; markDifference(turn: number | undefined): void } | undefined,
): void {
  const a = player.transcript;
  const b = other?.transcript;
  const turn = a && b ? firstDifference(a, b) : undefined;
  player.markDifference(turn);
  other?.markDifference(turn);
}
