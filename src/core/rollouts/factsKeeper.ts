import type { Transcript } from '../transcript/model';
import { taskLabel } from '../transcript/tasks';
import { actionsOf, type ActionKey } from './actions';
import { heldOnce, type RolloutFacts } from './facts';
import { movesOf, outcomeOf, toolCallCount } from './stats';

/** Turns rollouts into their facts as they are read, numbering each distinct action once for the action table. */
export class FactsKeeper {
  /** Every distinct (tool, argument, value) seen, by the index `RolloutFacts.actions` holds. */
  readonly actions: ActionKey[] = [];
  private readonly actionIds = new Map<string, number>();
  private readonly actionLists = new Map<string, readonly number[]>();
  private readonly once = heldOnce();

  facts(t: Transcript): RolloutFacts {
    const ids: number[] = [];
    for (const [key, action] of actionsOf(t)) {
      let id = this.actionIds.get(key);
      if (id === undefined) {
        id = this.actions.length;
        this.actionIds.set(key, id);
        this.actions.push(action);
      }
      ids.push(id);
    }
    const listKey = ids.join(',');
    let actions = this.actionLists.get(listKey);
    if (!actions) this.actionLists.set(listKey, (actions = ids));
    return {
      id: t.id,
      groupKey: this.once(t.groupKey),
      label: this.once(taskLabel(t)),
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

/** The facts of rollouts held whole (`mtrl rollouts`, a test): the same numbers the board computes from its facts. */
export function factsOf(rollouts: readonly Transcript[]): { facts: RolloutFacts[]; actions: ActionKey[] } {
  const keeper = new FactsKeeper();
  return { facts: rollouts.map((t) => keeper.facts(t)), actions: keeper.actions };
}
