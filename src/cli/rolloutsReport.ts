import {
  actionTable,
  ADVANTAGE_FORMULA,
  DEFAULT_SUCCESS_THRESHOLD,
  packVerdictsText,
  stepSummaries,
  summarize,
  type ActionTable,
  type RolloutSummary,
  type RolloutTally,
} from '../core/rollouts';
import { PACKS } from '../core/environments/registry';
import { outsideText } from '../core/text/display';

// What `mtrl rollouts` prints: the summary people read, and the `--json` shape scripts compare runs with.

const round = (x: number) => Math.round(x * 1e4) / 1e4;
/** Action rows per table in `--json`: the most telling ones. */
const JSON_ACTIONS = 20;

const actionsJson = (table: ActionTable) => ({
  above_average: table.above,
  below_average: table.below,
  rows: table.rows.slice(0, JSON_ACTIONS).map((r) => ({
    tool: r.tool,
    argument: r.argument,
    value: r.value,
    above: r.above,
    below: r.below,
    above_share: round(r.aboveShare),
    below_share: round(r.belowShare),
  })),
});

/** Everything both outputs need, computed once from the rollouts' tally. */
export function rolloutReport(tally: RolloutTally, successThreshold = DEFAULT_SUCCESS_THRESHOLD) {
  const { rows, actions } = tally;
  const grouping = tally.groups();
  const summary = summarize(rows, grouping.groups);
  const { steps, unknown } = stepSummaries(rows, grouping);
  const everyone = Array.from({ length: rows.length }, (_, i) => i);
  const byStep = new Map<number, number[]>();
  for (let i = 0; i < rows.length; i++) {
    const step = rows.step(i);
    if (step !== undefined) (byStep.get(step) ?? byStep.set(step, []).get(step)!).push(i);
  }
  return {
    summary,
    successThreshold,
    steps: steps.map((s) => ({ ...s, actions: actionTable(rows, actions, grouping.advantage, byStep.get(s.step) ?? []) })),
    pooledGroups: summary.stepUnknownGroups,
    unknownStepRollouts: unknown,
    /** Every group's, step-unknown groups included (verdict.ts). */
    zeroAdvantageGroups: summary.zeroAdvantageGroups,
    zeroAdvantageStepUnknown: grouping.groups.filter((g) => g.step === undefined && g.zeroAdvantage).length,
    actions: actionTable(rows, actions, grouping.advantage, everyone),
    toolCalls: tally.toolCalls,
    byTool: tally.byTool,
    // Where a pack's own verdict differs from the threshold's (a Wordle solve below it), said beside the solved count.
    packVerdicts: tally.packVerdicts,
    /** What the packs that recognized any rollout add in their own words (Wordle: its solve histogram). */
    packFields: Object.assign(
      {},
      ...PACKS.filter((p) => tally.packed.some((r) => r.pack === p.id)).map((p) => p.summary?.(tally.packed) ?? {}),
    ),
  };
}

type Report = ReturnType<typeof rolloutReport>;

/** The `--json` shape: the issue-9 fields first (scripts compare runs with them), then tool calls, steps, GRPO groups, actions. */
export function reportJson(report: Report): object {
  const s: RolloutSummary = report.summary;
  return {
    rollouts: s.rollouts,
    groups: s.groups,
    solved: s.solved,
    solve_rate: round(s.solveRate),
    success_threshold: report.successThreshold,
    partial: s.partial,
    pack_verdict_differs: report.packVerdicts,
    reward: s.reward
      ? { mean: round(s.reward.mean), min: round(s.reward.min), max: round(s.reward.max) }
      : { mean: null, min: null, max: null },
    ...report.packFields,
    tool_calls: { total: report.toolCalls, mean: round(s.meanToolCalls), by_tool: report.byTool },
    turns: { mean: round(s.meanTurns) },
    steps: report.steps.map((st) => ({
      step: st.step,
      rollouts: st.rollouts,
      groups: st.groups,
      solve_rate: round(st.solveRate),
      reward_mean: st.rewardMean === null ? null : round(st.rewardMean),
      zero_advantage_groups: st.zeroAdvantageGroups,
      actions: actionsJson(st.actions),
    })),
    grpo_groups: {
      groups: s.groups,
      pooled: report.pooledGroups,
      step_unknown_rollouts: report.unknownStepRollouts,
      zero_advantage: report.zeroAdvantageGroups,
      zero_advantage_step_unknown: report.zeroAdvantageStepUnknown,
      advantage: ADVANTAGE_FORMULA,
    },
    actions: actionsJson(report.actions),
  };
}

/** Characters of a tool name, argument or value shown in the action table. */
const ACTION_TEXT_MAX = 120;

const pct = (x: number) => `${(x * 100).toFixed(1)}%`;

export function reportText(report: Report, source: string): string {
  const s = report.summary;
  const lines = [
    `${s.rollouts} rollouts in ${s.groups} GRPO groups from ${source}`,
    `solved ${s.solved} (${pct(s.solveRate)}, reward ≥ ${report.successThreshold}), partial credit ${s.partial}, lost ${s.lost}, no play ${s.noPlay}` +
      packVerdictsText(report.packVerdicts),
    s.reward ? `reward mean ${round(s.reward.mean)}, min ${round(s.reward.min)}, max ${round(s.reward.max)}` : 'reward: none logged',
    `mean turns ${round(s.meanTurns)}, tool calls ${round(s.meanToolCalls)}${s.packMoves ? `, moves ${round(s.meanMoves)}` : ''}`,
  ];
  // Moves mean something only where a pack defines them; a tool call is not a move.
  if (s.packMoves)
    lines.push(
      `moves to solve: ${s.movesToSolve
        .map((n, moves) => (moves && n ? `${moves}: ${n}` : ''))
        .filter(Boolean)
        .join('  ')}`,
    );
  if (report.unknownStepRollouts) {
    lines.push(
      `step unknown for ${report.unknownStepRollouts} rollouts: their ${report.pooledGroups} groups pool every step of a task, so their advantages are not the policy's`,
    );
  }
  const unknownZero = report.zeroAdvantageStepUnknown ? ` (${report.zeroAdvantageStepUnknown} of them step unknown)` : '';
  lines.push(
    `${report.zeroAdvantageGroups} of ${s.groups} groups with all rewards equal (advantage 0)${unknownZero}; ${ADVANTAGE_FORMULA}`,
  );
  if (report.steps.length) {
    lines.push('step  rollouts  solve rate  reward mean');
    for (const st of report.steps)
      lines.push(
        `${String(st.step).padStart(4)}  ${String(st.rollouts).padStart(8)}  ${pct(st.solveRate).padStart(10)}  ${st.rewardMean === null ? '–' : round(st.rewardMean)}`,
      );
  }
  const rows = report.actions.rows.slice(0, 10);
  if (rows.length && (report.actions.above || report.actions.below)) {
    lines.push(
      `actions in above- vs below-average rollouts of their groups (${report.actions.above} above, ${report.actions.below} below):`,
    );
    // Tool names and arguments come from the agent: shown escaped on one line, so they cannot forge or recolour output.
    const shown = (text: string) => outsideText(text, ACTION_TEXT_MAX);
    for (const r of rows)
      lines.push(
        `  ${pct(r.aboveShare).padStart(6)}  ${pct(r.belowShare).padStart(6)}  ${shown(r.tool)}${r.argument ? ` ${shown(r.argument)}=` : ' '}${shown(r.value)}`,
      );
  }
  return lines.join('\n');
}
