import type { Episode, EpisodeTurn } from '../episode';
import { pythonJson } from '../pythonJson';
import type { Random } from '../random';
import { MAX_TOOL_CALLS, RefundDesk, REFUND_TOOLS } from './desk';
import { expectedOutcome, ticketOf, type Reason } from './tickets';

const REASONS: readonly Reason[] = ['damaged', 'wrong_item', 'late', 'changed_mind'];

/**
 * The first user message: the row's prompt, then the desk's initial environment with the tools in a random order
 * and a session id, as the real support agent appends its initial environment with a random action order.
 */
export function firstMessage(rowPrompt: string, rng: Random): string {
  const tools = [...REFUND_TOOLS];
  for (let i = tools.length - 1; i > 0; i--) {
    const j = rng.int(i + 1);
    [tools[i], tools[j]] = [tools[j], tools[i]];
  }
  const session = Array.from({ length: 8 }, () => rng.int(16).toString(16)).join('');
  const environment = { queue: 'refunds', session, available_tools: tools, tool_calls_remaining: MAX_TOOL_CALLS };
  return `${rowPrompt}\n\nInitial environment:\n${pythonJson(environment)}\nWork the ticket using the tools.`;
}

/**
 * A scripted refund agent: each decision (look the order up, name the reason, check the policy, work out the amount,
 * pick the resolution) is right with probability 0.5 + skill / 2, else it makes the mistake a base model makes
 * (skips a step, mistypes the order, refunds the full price despite the fee, refunds outside the window, closes
 * with the wrong resolution). The skill rises with the training step, so the reward does too.
 */
export function playRefund(rowPrompt: string, skill: number, rng: Random): Episode {
  const prompt = firstMessage(rowPrompt, rng);
  const ticket = ticketOf(rowPrompt);
  const desk = new RefundDesk(ticket);
  const right = () => rng.chance(0.5 + skill / 2);
  const turns: EpisodeTurn[] = [];
  let valid = false;
  const act = (thinking: string, name: string, args: Record<string, unknown>, raw?: string): Record<string, unknown> => {
    const text = raw ?? pythonJson(args);
    const result = desk.call(name, text);
    valid ||= RefundDesk.accepted(result);
    turns.push({ thinking, calls: [{ name, arguments: text, result: pythonJson(result) }] });
    return result;
  };
  const want = expectedOutcome(ticket);
  let order: Record<string, unknown> | undefined;
  if (right())
    order = act(`The customer names order ${ticket.orderId}. I should look it up before deciding anything.`, 'lookup_order', {
      order_id: ticket.orderId,
    });
  else if (rng.chance(0.5)) {
    const typo = `ORD-${ticket.orderId.slice(4, 8)}${(Number(ticket.orderId.slice(8)) + 1) % 10}`;
    act(`Let me look up the order first.`, 'lookup_order', { order_id: typo });
    if (right())
      order = act('No such order: I mistyped the number. Trying the one in the ticket.', 'lookup_order', { order_id: ticket.orderId });
  }
  const reason = right() ? ticket.reason : rng.pick(REASONS.filter((r) => r !== ticket.reason));
  if (!desk.over && (reason === ticket.reason || rng.chance(0.6)))
    act(`The complaint sounds like "${reason}". I will check what the policy allows for it.`, 'check_policy', { reason });
  const fee = reason === 'changed_mind' && right();
  const windowChecked = reason === 'changed_mind' && order !== undefined && right();
  let amount = reason === 'late' ? 9.99 : fee ? Math.round(ticket.price * 85) / 100 : ticket.price;
  if (reason === ticket.reason && right()) amount = want.amount;
  else if (windowChecked && ticket.deliveredDaysAgo > 30) amount = 0;
  if (!desk.over && amount > 0) {
    const raw = rng.chance(0.03) ? `{"order_id": "${ticket.orderId}", "amount": ${amount}` : undefined;
    act(`The policy gives ${amount}. Issuing the refund.`, 'issue_refund', { order_id: ticket.orderId, amount }, raw);
  }
  const resolution = right() ? (amount > 0 ? 'refunded' : 'denied') : rng.pick(['escalated', amount > 0 ? 'denied' : 'refunded']);
  if (!desk.over)
    act(`Everything is done: closing the ticket as ${resolution}.`, 'close_ticket', { resolution, note: `Reason: ${reason}.` });
  turns.push({ thinking: 'The ticket is closed. I will tell the customer what happened.', calls: [] });
  const reward = desk.reward();
  return { prompt, turns, reward, solved: reward >= 1, valid };
}
