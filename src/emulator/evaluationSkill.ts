/** What an evaluation's scripted player depends on: the model and the decoding settings. */
interface EvaluationSettings {
  trained: boolean;
  effort: 'low' | 'medium' | 'high';
  temperature: number;
  topP: number;
  maxTokens: number;
}

/** Skill at temperature 1, top-p 1 and 8,192 tokens; the player's solve rate is close to its skill (published: 61 → 84 % at medium reasoning effort, 15 → 69 % at low). */
const SKILL = { medium: { base: 0.62, trained: 0.85 }, low: { base: 0.21, trained: 0.7 }, high: { base: 0.68, trained: 0.88 } };

/**
 * The player's skill in an evaluation, in the directions the write-up reports: the adapter beats the base model in every
 * setting, low reasoning effort costs the base model most, a temperature away from 1 and a short token budget cost some.
 */
export function evaluationSkill(s: EvaluationSettings): number {
  const base = SKILL[s.effort][s.trained ? 'trained' : 'base'];
  const temperature = Number.isFinite(s.temperature) ? 1 - 0.12 * Math.min(1, Math.abs(s.temperature - 1)) : 1;
  const topP = Number.isFinite(s.topP) ? 1 - 0.05 * Math.min(1, Math.max(0, 1 - s.topP)) : 1;
  // A reasoning model spends its budget thinking; less so at low effort.
  const need = s.effort === 'low' ? 2048 : 6144;
  const tokens = Number.isFinite(s.maxTokens) ? Math.min(1, 0.5 + (0.5 * s.maxTokens) / need) : 1;
  return Math.max(0.02, Math.min(0.97, base * temperature * topP * tokens));
}
