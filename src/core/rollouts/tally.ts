import type { Transcript } from '../transcript/model';
import type { ActionKey } from './actions';
import type { RolloutFacts } from './facts';
import { FactsKeeper } from './factsKeeper';
import { packVerdictDiffers, type PackVerdictDiffers } from './verdict';

/**
 * What `mtrl rollouts` reports of rollouts, gathered as they are read: each rollout's facts and its tool calls counted,
 * never the rollout itself. Kept whole (even as summaryKeeper keeps them), 100,000 trace folders' rollouts were half
 * the read's memory.
 */
export class RolloutTally {
  private readonly keeper = new FactsKeeper();
  readonly facts: RolloutFacts[] = [];
  toolCalls = 0;
  readonly byTool: Record<string, number> = {};
  readonly packVerdicts: Partial<Record<PackVerdictDiffers, number>> = {};

  /** Every distinct (tool, argument, value) the facts' `actions` index. */
  get actions(): readonly ActionKey[] {
    return this.keeper.actions;
  }

  add(t: Transcript): void {
    const facts = this.keeper.facts(t);
    this.facts.push(facts);
    this.toolCalls += facts.toolCalls;
    for (const turn of t.turns) for (const call of turn.toolCalls) this.byTool[call.name] = (this.byTool[call.name] ?? 0) + 1;
    const differs = packVerdictDiffers(t);
    if (differs) this.packVerdicts[differs] = (this.packVerdicts[differs] ?? 0) + 1;
  }

  /** The tally of rollouts already held. */
  static of(rollouts: Iterable<Transcript>): RolloutTally {
    const tally = new RolloutTally();
    for (const t of rollouts) tally.add(t);
    return tally;
  }
}
