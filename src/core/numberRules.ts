import { outsideText } from './text/display';

// Numbers from outside (a reward, a policy's token count) are checked where they enter, each against a rule named in
// the sentence: past these bounds sums and means stop being figures (1e308 rewards gave `Infinity` statistics).

/** Largest reward magnitude: a million rewards' sum of squares stays a finite figure. */
export const REWARD_LIMIT = 1e9;
export const REWARD_RULE = 'a reward must be a finite number from -1e9 to 1e9';

/** Largest token count of one model call: far past any context window, far below where sums lose precision. */
export const TOKEN_COUNT_LIMIT = 10_000_000;
export const TOKEN_COUNT_RULE = 'a token count must be a whole number from 0 to 10,000,000 per model call';

/** Largest metric magnitude a health check reads: past any reward, token count or time a run logs, far below `Infinity` sums. */
export const METRIC_LIMIT = 1e12;
export const METRIC_RULE = 'a metric value must be a finite number from -1e12 to 1e12';

/** Largest training step: far past any run's plan. */
export const STEP_LIMIT = 1_000_000;
export const STEP_RULE = 'a step must be a whole number from 0 to 1,000,000';

export function followsMetricRule(value: unknown): value is number {
  return typeof value === 'number' && Number.isFinite(value) && Math.abs(value) <= METRIC_LIMIT;
}

export function followsStepRule(value: unknown): value is number {
  return typeof value === 'number' && Number.isInteger(value) && value >= 0 && value <= STEP_LIMIT;
}

export function followsRewardRule(value: unknown): value is number {
  return typeof value === 'number' && Number.isFinite(value) && Math.abs(value) <= REWARD_LIMIT;
}

export function followsTokenCountRule(value: unknown): value is number {
  return typeof value === 'number' && Number.isInteger(value) && value >= 0 && value <= TOKEN_COUNT_LIMIT;
}

/** A value as it is quoted in a sentence: `1e+308`, `Infinity`, `NaN`, `"inf"`; JSON text of anything else, cut to 40 characters. */
export function quotedValue(value: unknown): string {
  if (typeof value === 'number') return String(value);
  const text = JSON.stringify(value) ?? String(value);
  return text.length > 40 ? `${text.slice(0, 40)}…` : text;
}

const NAMED_ROLLOUTS = 3;

/**
 * The sentence refusing rollouts whose reward (or a turn's) breaks the reward rule, naming the first few with their
 * value; undefined when every reward follows it. Statistics over such rewards would be `Infinity` or meaningless.
 */
export function rewardRuleProblem(
  rollouts: readonly { id: string; reward?: number; turns: readonly { reward?: number }[] }[],
): string | undefined {
  const check = new RewardRuleCheck();
  for (const t of rollouts) check.add(t);
  return check.problem();
}

/** rewardRuleProblem as rollouts stream past, one at a time: the rollouts need not be held. */
export class RewardRuleCheck {
  private readonly named: string[] = [];
  private count = 0;

  add(t: { id: string; reward?: number; turns: readonly { reward?: number }[] }): void {
    let bad = t.reward !== undefined && !followsRewardRule(t.reward) ? t.reward : undefined;
    for (const turn of t.turns) if (bad === undefined && turn.reward !== undefined && !followsRewardRule(turn.reward)) bad = turn.reward;
    if (bad === undefined) return;
    if (this.count++ < NAMED_ROLLOUTS) this.named.push(`${t.id ? outsideText(t.id, 120) : '(no id)'} ${quotedValue(bad)}`);
  }

  problem(): string | undefined {
    const count = this.count;
    if (!count) return undefined;
    const more = count > NAMED_ROLLOUTS ? ` and ${count - NAMED_ROLLOUTS} more` : '';
    return `${count} rollout${count === 1 ? ' has a reward' : 's have rewards'} that break${count === 1 ? 's' : ''} the reward rule (${REWARD_RULE}): ${this.named.join(', ')}${more}. Fix the code that computes the reward; no statistics are given over such rewards`;
  }
}
