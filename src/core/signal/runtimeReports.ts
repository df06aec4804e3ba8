import { followsRewardRule, quotedValue, REWARD_RULE } from '../numberRules';

// CompleteRollout and UpdateReward as the local job runtime takes them: the body's shape and rewards checked where they
// enter, and each report made once per trajectory. A retry with the same ClientToken is the same call (the service
// model's idempotency token), answered again; any other second report is a ConflictException, as the service model says.

/** Per-turn rewards one UpdateReward may carry: far past any episode's turns, far below a list that costs to sum. */
export const MAX_REWARDS = 10_000;

export type ReportOperation = 'CompleteRollout' | 'UpdateReward';

/** Why a report body is refused (a ValidationException's sentence), or undefined when it has the operation's shape. */
export function reportBodyProblem(operation: ReportOperation, body: unknown): string | undefined {
  if (!body || typeof body !== 'object' || Array.isArray(body))
    return `The body of ${operation} must be a JSON object, got ${quotedValue(body)}.`;
  const fields = body as Record<string, unknown>;
  if (fields.TrajectoryId !== undefined && typeof fields.TrajectoryId !== 'string')
    return `TrajectoryId must be a string, got ${quotedValue(fields.TrajectoryId)}.`;
  if (fields.ClientToken !== undefined && typeof fields.ClientToken !== 'string')
    return `ClientToken must be a string, got ${quotedValue(fields.ClientToken)}.`;
  if (operation === 'CompleteRollout') return undefined;
  const rewards = fields.Rewards;
  if (!Array.isArray(rewards)) return `Rewards must be a list of numbers, got ${quotedValue(rewards)}.`;
  if (!rewards.length) return 'Rewards must hold at least one number (the rollout’s reward, or one per turn); the list was empty.';
  if (rewards.length > MAX_REWARDS)
    return `Rewards holds ${rewards.length} numbers; UpdateReward takes at most ${MAX_REWARDS} (one per turn).`;
  const bad = rewards.findIndex((r) => !followsRewardRule(r));
  if (bad >= 0) return `Rewards[${bad}] is ${quotedValue(rewards[bad])}, which breaks the reward rule: ${REWARD_RULE}.`;
  return undefined;
}

/** The reports each trajectory has had, by operation, with the ClientToken each came with. */
export class ReportLedger {
  private readonly made = new Map<string, string | undefined>();

  /** 'first' (apply it), 'retry' (the same call again: answer as before, change nothing) or a ConflictException's sentence. */
  check(operation: ReportOperation, trajectoryId: string, clientToken: string | undefined): 'first' | 'retry' | string {
    const key = `${operation}\u0000${trajectoryId}`;
    if (!this.made.has(key)) {
      this.made.set(key, clientToken);
      return 'first';
    }
    const token = this.made.get(key);
    if (token !== undefined && token === clientToken) return 'retry';
    return `${operation} was already called for trajectory ${trajectoryId}: a trajectory is reported once (a retry of the same call carries the same ClientToken).`;
  }
}
