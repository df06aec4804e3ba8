import { followsRewardRule, quotedValue, REWARD_RULE } from '../numberRules';

// CompleteRollout and UpdateReward as the local job runtime takes them: the body's shape and rewards checked where they
// enter, and each report made once per trajectory. A retry with the same ClientToken is the same call (the service
// model's idempotency token), answered again; any other second report is a ConflictException, as the service model says.
// The emulator's Job Runtime keeps the same ledger.

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

/** A report's fields the ledger reads, once reportBodyProblem has passed the body (ClientToken a string when given). */
type ReportBody = { ClientToken?: string; Status?: unknown; Rewards?: unknown };

/** What a report asks for: the same token with other arguments is another call, not a retry. */
const callOf = (operation: ReportOperation, trajectoryId: string, body: ReportBody) =>
  JSON.stringify([operation, trajectoryId, operation === 'CompleteRollout' ? (body.Status ?? 'ready') : (body.Rewards ?? null)]);

/** The reports each trajectory has had and the ClientTokens they came with: one rule for the local job runtime and the
 * emulator, so an agent that passes one passes the other. */
export class ReportLedger {
  private readonly byTrajectory = new Map<string, string>();
  private readonly byToken = new Map<string, string>();

  /** 'first' (apply it, then `record` it), 'retry' (the same call again: answer as before, change nothing) or a
   * ConflictException's sentence. */
  check(operation: ReportOperation, trajectoryId: string, body: ReportBody): 'first' | 'retry' | string {
    const call = callOf(operation, trajectoryId, body);
    const clientToken = body.ClientToken || undefined;
    if (clientToken && this.byToken.has(clientToken))
      return this.byToken.get(clientToken) === call ? 'retry' : `ClientToken ${clientToken} was used for another request.`;
    const before = this.byTrajectory.get(`${operation}\u0000${trajectoryId}`);
    if (before === undefined) return 'first';
    // The SDK's feedback client sends no token: its repeated CompleteRollout of the same status cannot be told from a retry.
    if (!clientToken && operation === 'CompleteRollout' && before === call) return 'retry';
    return `${operation} was already called for trajectory ${trajectoryId}: a trajectory is reported once (a retry of the same call carries the same ClientToken).`;
  }

  /** The report made: later calls are measured against it. */
  record(operation: ReportOperation, trajectoryId: string, body: ReportBody): void {
    const call = callOf(operation, trajectoryId, body);
    this.byTrajectory.set(`${operation}\u0000${trajectoryId}`, call);
    if (body.ClientToken) this.byToken.set(body.ClientToken, call);
  }
}
