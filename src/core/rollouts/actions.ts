import type { ToolCall, Transcript } from '../transcript/model';
import type { FactsRows, RolloutFacts } from './facts';

/** One tool and argument value, and how many above- and below-average rollouts of their groups used it. */
export interface ActionRow {
  tool: string;
  /** The argument's name; empty when the tool takes one plain value. */
  argument: string;
  /** The value as short text (JSON for anything but a string). */
  value: string;
  above: number;
  below: number;
  /** Shares of the above- and below-average rollouts that used it (0–1). */
  aboveShare: number;
  belowShare: number;
}

/** "Why does the base model restart the router?": actions by how they split the rollouts that beat their group from those that did not. */
export interface ActionTable {
  /** Rollouts with a positive and a negative advantage (rollouts of all-equal groups are in neither). */
  above: number;
  below: number;
  rows: ActionRow[];
}

const VALUE_CHARS = 80;
const TOLERANCE = 1e-9;

function valueText(v: unknown): string {
  const text = typeof v === 'string' ? v : (JSON.stringify(v) ?? String(v));
  return text.length > VALUE_CHARS ? `${text.slice(0, VALUE_CHARS - 1)}…` : text;
}

/** One tool, argument and value as the action table counts it. */
export interface ActionKey {
  tool: string;
  argument: string;
  value: string;
}

/** The (tool, argument, value) keys of one tool call: one per argument, or one for a call without any. */
export function callActions(call: ToolCall): ActionKey[] {
  const args = call.arguments;
  if (!args || typeof args !== 'object' || Array.isArray(args))
    return [{ tool: call.name, argument: '', value: args === undefined ? '' : valueText(args) }];
  const entries = Object.entries(args);
  if (!entries.length) return [{ tool: call.name, argument: '', value: '' }];
  return entries.map(([argument, value]) => ({ tool: call.name, argument, value: valueText(value) }));
}

/** An action key as one text, for maps. */
export const actionText = (a: ActionKey) => `${a.tool}\u0000${a.argument}\u0000${a.value}`;

/** The distinct (tool, argument, value) keys of one rollout. */
export function actionsOf(t: Transcript): Map<string, ActionKey> {
  const out = new Map<string, ActionKey>();
  for (const turn of t.turns) for (const call of turn.toolCalls) for (const a of callActions(call)) out.set(actionText(a), a);
  return out;
}

/** The action table over the given rollouts, each with its advantage within its own group; the most telling rows first. */
export function actionTable(
  rollouts: FactsRows<Pick<RolloutFacts, 'actions'>>,
  /** The actions `RolloutFacts.actions` number (FactsKeeper). */
  actions: readonly ActionKey[],
  advantage: readonly number[],
  members: Iterable<number>,
  limit = 100,
): ActionTable {
  const rows = new Map<number, ActionRow>();
  let above = 0;
  let below = 0;
  for (const i of members) {
    const a = advantage[i];
    const side = a > TOLERANCE ? 'above' : a < -TOLERANCE ? 'below' : undefined;
    if (!side) continue;
    if (side === 'above') above++;
    else below++;
    for (const id of rollouts.at(i)!.actions) {
      let row = rows.get(id);
      if (!row) rows.set(id, (row = { ...actions[id], above: 0, below: 0, aboveShare: 0, belowShare: 0 }));
      row[side]++;
    }
  }
  const out = [...rows.values()];
  for (const row of out) {
    row.aboveShare = above ? row.above / above : 0;
    row.belowShare = below ? row.below / below : 0;
  }
  out.sort(
    (x, y) =>
      Math.abs(y.aboveShare - y.belowShare) - Math.abs(x.aboveShare - x.belowShare) ||
      y.above + y.below - (x.above + x.below) ||
      x.tool.localeCompare(y.tool) ||
      x.value.localeCompare(y.value),
  );
  return { above, below, rows: out.slice(0, limit) };
}
