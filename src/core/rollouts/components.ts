/** A rollout's reward components: the numeric metrics its agent reported (outcome, shaping). */
export function numericComponents(metrics: Record<string, unknown> | undefined): Record<string, number> {
  const out: Record<string, number> = {};
  for (const [name, v] of Object.entries(metrics ?? {})) if (typeof v === 'number' && Number.isFinite(v)) out[name] = v;
  return out;
}

/**
 * A group's reward components: each numeric metric its members' agents reported (outcome, shaping), averaged over the
 * members that report it; nothing when none does.
 */
export function meanComponents(metrics: readonly (Record<string, unknown> | undefined)[]): { components?: Record<string, number> } {
  const sums = new Map<string, [number, number]>();
  for (const m of metrics)
    for (const [name, v] of Object.entries(numericComponents(m))) {
      const [sum, n] = sums.get(name) ?? [0, 0];
      sums.set(name, [sum + v, n + 1]);
    }
  return sums.size ? { components: Object.fromEntries([...sums].map(([name, [sum, n]]) => [name, sum / n])) } : {};
}
