import { expectedOutcome, POLICY, type Reason, type Ticket } from './tickets';

// The refund desk environment: four tools with JSON arguments and JSON results, and a partial-credit reward of 0.25
// per part of the job done right (the order looked up, the policy checked for the true reason, the right refund, the
// right resolution), as the real support run scored 0.25 per correct diagnostic step.

export const REFUND_TOOLS = ['lookup_order', 'check_policy', 'issue_refund', 'close_ticket'] as const;
/** Tool calls a rollout may make before the desk closes the session. */
export const MAX_TOOL_CALLS = 6;

const REASONS: readonly string[] = ['damaged', 'wrong_item', 'late', 'changed_mind'];

type Result = Record<string, unknown>;

export class RefundDesk {
  private lookedUp = false;
  private checked = new Set<string>();
  private readonly refunds: number[] = [];
  private resolution?: string;
  private calls = 0;

  constructor(readonly ticket: Ticket) {}

  /** Closed by the agent, or out of tool calls. */
  get over(): boolean {
    return this.resolution !== undefined || this.calls >= MAX_TOOL_CALLS;
  }

  /** Whether a call was accepted (no `error` in its result), for the batch's validity. */
  static accepted(result: Result): boolean {
    return result.error === undefined;
  }

  /** One tool call: the arguments as the model wrote them, the result the tool returns. */
  call(name: string, argumentsText: string): Result {
    this.calls++;
    let args: Record<string, unknown>;
    try {
      args = JSON.parse(argumentsText) as Record<string, unknown>;
      if (!args || typeof args !== 'object') throw new Error('not an object');
    } catch {
      return { error: 'The arguments are not a JSON object.' };
    }
    if (name === 'lookup_order') return this.lookup(args);
    if (name === 'check_policy') return this.policy(args);
    if (name === 'issue_refund') return this.refund(args);
    if (name === 'close_ticket') return this.close(args);
    return { error: `Unknown tool ${name}. Tools: ${REFUND_TOOLS.join(', ')}.` };
  }

  /** 0.25 per part done right; 1.0 is a ticket resolved exactly as the policy says. */
  reward(): number {
    const want = expectedOutcome(this.ticket);
    const refundRight =
      want.amount === 0 ? this.refunds.length === 0 : this.refunds.length === 1 && Math.abs(this.refunds[0] - want.amount) < 0.005;
    const parts = [
      this.lookedUp,
      this.checked.has(this.ticket.reason),
      this.resolution !== undefined && refundRight,
      this.resolution === want.resolution,
    ];
    return parts.filter(Boolean).length / 4;
  }

  private lookup(args: Record<string, unknown>): Result {
    if (args.order_id !== this.ticket.orderId) return { found: false, error: `No order ${String(args.order_id)}.` };
    this.lookedUp = true;
    const { orderId, item, price, deliveredDaysAgo } = this.ticket;
    return { found: true, order_id: orderId, item, price, delivered_days_ago: deliveredDaysAgo, status: 'delivered' };
  }

  private policy(args: Record<string, unknown>): Result {
    const reason = String(args.reason);
    if (!REASONS.includes(reason)) return { error: `reason must be one of ${REASONS.join(', ')}.` };
    this.checked.add(reason);
    return policyFor(reason as Reason);
  }

  private refund(args: Record<string, unknown>): Result {
    if (args.order_id !== this.ticket.orderId) return { accepted: false, error: `No order ${String(args.order_id)}.` };
    const amount = Number(args.amount);
    if (!Number.isFinite(amount) || amount <= 0 || amount > this.ticket.price)
      return { accepted: false, error: `amount must be more than 0 and at most the order total ${this.ticket.price}.` };
    this.refunds.push(amount);
    return { accepted: true, refund_id: `RF-${this.ticket.orderId.slice(4)}-${this.refunds.length}`, amount };
  }

  private close(args: Record<string, unknown>): Result {
    this.resolution = String(args.resolution ?? '');
    return { closed: true, resolution: this.resolution, terminal: true };
  }
}

/** What `check_policy` answers for a reason. */
export function policyFor(reason: Reason): Result {
  if (reason === 'late') return { reason, refundable: true, refund: 'shipping cost only', amount: POLICY.lateShippingRefund };
  if (reason === 'changed_mind')
    return {
      reason,
      refundable: `only within ${POLICY.windowDays} days of delivery`,
      refund: `price minus a ${POLICY.restockingFeePercent}% restocking fee`,
      percent: 100 - POLICY.restockingFeePercent,
      window_days: POLICY.windowDays,
    };
  return { reason, refundable: true, refund: 'full price', percent: 100 };
}
