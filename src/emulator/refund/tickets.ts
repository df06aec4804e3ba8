import type { DatasetRow } from '../answers';
import { hashSeed, Random } from '../random';

// The refund desk's tasks: one customer ticket per dataset row, its hidden facts (what the order lookup and the
// policy reveal) derived from the order number, so any prompt naming an order plays the same ticket every time.

export type Reason = 'damaged' | 'wrong_item' | 'late' | 'changed_mind';

/** What the agent must find out with its tools; the prompt only tells the customer's complaint. */
export interface Ticket {
  orderId: string;
  item: string;
  price: number;
  deliveredDaysAgo: number;
  reason: Reason;
}

const ITEMS: readonly [string, number][] = [
  ['blender', 49.99],
  ['desk lamp', 34.5],
  ['running shoes', 89],
  ['headphones', 129.99],
  ['coffee grinder', 59.95],
  ['backpack', 74],
  ['phone case', 19.99],
  ['air fryer', 99.5],
  ['office chair', 189],
  ['water bottle', 24.95],
];

const REASONS: readonly Reason[] = ['damaged', 'wrong_item', 'late', 'changed_mind'];

const COMPLAINTS: Record<Reason, readonly string[]> = {
  damaged: [
    'My {item} arrived cracked.',
    'The {item} was broken when I opened the box.',
    'The {item} does not turn on, the casing is dented.',
  ],
  wrong_item: ['I ordered a {item} but got something else.', 'The box says {item} but the wrong product is inside.'],
  late: ['My {item} came a week late although I paid for express shipping.', 'The {item} arrived long after the promised date.'],
  changed_mind: ['I no longer need the {item}, can I send it back?', 'I bought a {item} as a gift and the person already has one.'],
};

/** The days a change of mind may be refunded within, the fee kept then, and the shipping refunded for a late order. */
export const POLICY = { windowDays: 30, restockingFeePercent: 15, lateShippingRefund: 9.99 } as const;

const ORDER = /\bORD-(\d{5})\b/;

/** The ticket behind an order number (or, for a prompt that names none, behind the prompt text itself). */
export function ticketOf(prompt: string): Ticket {
  const orderId = ORDER.exec(prompt)?.[0] ?? `ORD-${String(hashSeed(prompt) % 100000).padStart(5, '0')}`;
  const rng = new Random(`ticket#${orderId}`);
  const [item, price] = rng.pick(ITEMS);
  return { orderId, item, price, reason: rng.pick(REASONS), deliveredDaysAgo: 2 + rng.int(44) };
}

/** The amount the policy grants (0: none) and the resolution a correct agent closes the ticket with. */
export function expectedOutcome(ticket: Ticket): { amount: number; resolution: 'refunded' | 'denied' } {
  const cents = (x: number) => Math.round(x * 100) / 100;
  if (ticket.reason === 'damaged' || ticket.reason === 'wrong_item') return { amount: ticket.price, resolution: 'refunded' };
  if (ticket.reason === 'late') return { amount: POLICY.lateShippingRefund, resolution: 'refunded' };
  if (ticket.deliveredDaysAgo > POLICY.windowDays) return { amount: 0, resolution: 'denied' };
  return { amount: cents((ticket.price * (100 - POLICY.restockingFeePercent)) / 100), resolution: 'refunded' };
}

/** The row's prompt text: the ticket number, the order and the customer's words (never the hidden facts). */
function promptOf(number: number, ticket: Ticket, rng: Random): string {
  const complaint = rng.pick(COMPLAINTS[ticket.reason]).replace('{item}', ticket.item);
  return `Refund ticket T-${String(number).padStart(4, '0')} for order ${ticket.orderId}. The customer writes: "${complaint}" Decide on the refund according to the store policy and close the ticket.`;
}

/** Tickets in the seeded refund datasets: more training rows than a batch of 64, as the service requires. */
const TICKETS = { train: 80, eval: 32 };

/** The seeded refund dataset of a split as rows (also what a refund job without a readable dataset plays). */
export function refundRows(split: 'train' | 'eval'): DatasetRow[] {
  return ticketPrompts(split, TICKETS[split]).map((prompt, i) => ({ id: `refund_${split}_${String(i).padStart(4, '0')}`, prompt }));
}

/** `count` tickets of a split, each a distinct order. */
function ticketPrompts(split: 'train' | 'eval', count: number): string[] {
  const rng = new Random(`refund-${split}`);
  const used = new Set<string>();
  const prompts: string[] = [];
  for (let i = 0; prompts.length < count; i++) {
    const orderId = `ORD-${String(10000 + rng.int(90000))}`;
    if (used.has(orderId)) continue;
    used.add(orderId);
    prompts.push(promptOf((split === 'train' ? 1000 : 5000) + prompts.length, ticketOf(orderId), rng));
  }
  return prompts;
}
