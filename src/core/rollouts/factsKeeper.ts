import type { ToolCall, Transcript, Turn } from '../transcript/model';
import { promptTold, taskLabel } from '../transcript/tasks';
import { actionText, callActions, type ActionKey } from './actions';
import { heldOnce, type RolloutFacts } from './facts';
import { SpanCall } from './spans';
import { movesOf, outcomeOf, toolCallCount } from './stats';

/** Distinct calls remembered by their stored text: past these (each call unlike the others), each is decoded. */
const CALLS_REMEMBERED = 10_000;

/** Turns rollouts into their facts as they are read, numbering each distinct action once for the action table. */
export class FactsKeeper {
  /** Every distinct (tool, argument, value) seen, by the index `RolloutFacts.actions` holds. */
  readonly actions: ActionKey[] = [];
  private readonly actionIds = new Map<string, number>();
  /** Each distinct list of action ids, by a number made of its ids: joined into text and hashed, 100,000 lists cost more. */
  private readonly actionLists = new Map<number, (readonly number[])[]>();
  private readonly once = heldOnce();
  /** Each turn's action ids, when the rollouts share their turns (summaryKeeper holds each repeated turn once). */
  private readonly turnIds?: Map<Turn, readonly number[]>;

  constructor(turnsShared = false) {
    if (turnsShared) {
      this.turnIds = new Map();
      this.listIds = new Map();
    }
  }

  private idOf(action: ActionKey): number {
    const key = actionText(action);
    let id = this.actionIds.get(key);
    if (id === undefined) {
      id = this.actions.length;
      this.actionIds.set(key, id);
      this.actions.push(action);
    }
    return id;
  }

  /** Each call's action ids by its tool, then its stored argument text (a trace's), up to CALLS_REMEMBERED of them. */
  private readonly callIds = new Map<string, Map<string, readonly number[]>>();
  private callsRemembered = 0;

  private idsOfCall(call: ToolCall): readonly number[] {
    // Equal calls told by their stored text, not decoded each: a run's calls repeat a few actions.
    const source = call instanceof SpanCall ? call.argumentsSource : undefined;
    const ofTool = source === undefined ? undefined : this.callIds.get(call.name);
    const known = source === undefined ? undefined : ofTool?.get(source);
    if (known) return known;
    const ids = callActions(call).map((action) => this.idOf(action));
    if (source !== undefined && this.callsRemembered < CALLS_REMEMBERED) {
      this.callsRemembered++;
      if (ofTool) ofTool.set(source, ids);
      else this.callIds.set(call.name, new Map([[source, ids]]));
    }
    return ids;
  }

  private idsOfTurn(turn: Turn): readonly number[] {
    const known = this.turnIds?.get(turn);
    if (known) return known;
    const ids: number[] = [];
    for (const call of turn.toolCalls) for (const id of this.idsOfCall(call)) ids.push(id);
    this.turnIds?.set(turn, ids);
    return ids;
  }

  /** Each turn list's distinct action ids, when the rollouts share their lists too (summaryKeeper). */
  private readonly listIds?: Map<readonly Turn[], readonly number[]>;
  /** Each prompt's label, where the prompt alone tells it. */
  private readonly labels = new Map<string, string>();

  private actionsOf(turns: readonly Turn[]): readonly number[] {
    const known = this.listIds?.get(turns);
    if (known) return known;
    // Distinct, in the order first called.
    const ids: number[] = [];
    for (const turn of turns) for (const id of this.idsOfTurn(turn)) if (!ids.includes(id)) ids.push(id);
    let key = ids.length;
    for (const id of ids) key = (Math.imul(key, 31) + id) & 0x3fffffff;
    const lists = this.actionLists.get(key);
    let actions = lists && sameList(lists, ids);
    if (!actions) {
      actions = ids;
      if (lists) lists.push(ids);
      else this.actionLists.set(key, [ids]);
    }
    this.listIds?.set(turns, actions);
    return actions;
  }

  private labelOf(t: Transcript): string {
    const told = promptTold(t);
    if (told === undefined) return this.once(taskLabel(t));
    let label = this.labels.get(told);
    if (label === undefined) this.labels.set(told, (label = this.once(taskLabel(t))));
    return label;
  }

  facts(t: Transcript): RolloutFacts {
    const actions = this.actionsOf(t.turns);
    return {
      id: t.id,
      groupKey: this.once(t.groupKey),
      label: this.labelOf(t),
      pack: t.env?.pack,
      prompt: this.once(t.task.prompt),
      taskId: t.task.id === undefined ? undefined : this.once(t.task.id),
      step: t.step,
      reward: t.reward,
      status: t.status,
      solved: t.solved === true,
      outcome: outcomeOf(t),
      moves: movesOf(t),
      packMoves: t.env?.moves !== undefined,
      turns: t.turns.length,
      toolCalls: toolCallCount(t),
      rebuilt: t.rebuilt === true,
      metrics: t.metrics,
      actions,
    };
  }
}

/** The list among `lists` with the same ids as `ids`, if any. */
function sameList(lists: readonly (readonly number[])[], ids: readonly number[]): readonly number[] | undefined {
  for (const list of lists) if (list.length === ids.length && list.every((id, i) => id === ids[i])) return list;
  return undefined;
}

/** The facts of rollouts held whole (`mtrl rollouts`, a test): the same numbers the board computes from its facts. */
export function factsOf(rollouts: readonly Transcript[]): { facts: RolloutFacts[]; actions: ActionKey[] } {
  const keeper = new FactsKeeper(true);
  return { facts: rollouts.map((t) => keeper.facts(t)), actions: keeper.actions };
}
