import type { SummarizedRollout } from '../environments/types';
import type { Transcript } from '../transcript/model';
import type { ActionKey } from './actions';
import { FactsTable } from './facts';
import { FactsKeeper } from './factsKeeper';
import { GroupIndex } from './groups';
import { packVerdictDiffers, type PackVerdictDiffers } from './verdict';

/**
 * What `mtrl rollouts` reports of rollouts, gathered as they are read: each rollout's facts in columns (as the board
 * holds them) and its GRPO group, its tool calls counted, never the rollout itself. Kept whole (even as summaryKeeper
 * keeps them), 100,000 trace folders' rollouts were half the read's memory.
 */
export class RolloutTally {
  private readonly keeper = new FactsKeeper();
  readonly rows = new FactsTable();
  private readonly grouping = new GroupIndex();
  private spread = true;
  toolCalls = 0;
  /** By a map, not an object's keys: a tool name read from a trace is a new string each time, made an object key anew. */
  private readonly callsByTool = new Map<string, number>();
  readonly packVerdicts: Partial<Record<PackVerdictDiffers, number>> = {};
  /** What the packs' summaries read, of the rollouts a pack recognized. */
  readonly packed: SummarizedRollout[] = [];

  /** Tool calls by tool name. */
  get byTool(): Record<string, number> {
    return Object.fromEntries(this.callsByTool);
  }

  /** Every distinct (tool, argument, value) the rows' `actions` index. */
  get actions(): readonly ActionKey[] {
    return this.keeper.actions;
  }

  add(t: Transcript): void {
    const facts = this.keeper.facts(t);
    this.grouping.join(facts, this.rows.length);
    this.spread = false;
    this.rows.push(facts);
    this.toolCalls += facts.toolCalls;
    for (const turn of t.turns)
      for (const call of turn.toolCalls) this.callsByTool.set(call.name, (this.callsByTool.get(call.name) ?? 0) + 1);
    const differs = packVerdictDiffers(t);
    if (differs) this.packVerdicts[differs] = (this.packVerdicts[differs] ?? 0) + 1;
    if (facts.pack !== undefined)
      this.packed.push({ pack: facts.pack, solved: facts.solved, moves: facts.moves, packMoves: facts.packMoves });
  }

  /** The rollouts' GRPO groups, each group's spread computed once, when asked. */
  groups(): GroupIndex {
    if (!this.spread) this.grouping.spreadAll(this.rows);
    this.spread = true;
    return this.grouping;
  }

  /** The tally of rollouts already held. */
  static of(rollouts: Iterable<Transcript>): RolloutTally {
    const tally = new RolloutTally();
    for (const t of rollouts) tally.add(t);
    return tally;
  }
}
