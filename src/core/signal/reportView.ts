import { formatDollars } from '../jobs/pricing';
import type { SignalTokens } from './projectedCost';
import { PACK_VERDICT_DIFFERS, type PackVerdictDiffers } from '../rollouts/verdict';
import { outcomeTiedSentence } from './componentSpread';
import type { SignalReport } from './report';

/** What the learning-signal view is given: one check's report (or why there is none) and the figures beside it. */
export interface SignalCheckShown {
  /** Where the rollouts came from, in words: a file, a job, a kept check's dataset. */
  title: string;
  status: 'running' | 'done' | 'failed';
  /** ISO time the check ran. */
  at?: string;
  report?: SignalReport;
  /** Why a failed check has no report. */
  error?: string;
  /** Billable tokens of an average rollout, when the check measured them (the local route). */
  tokensPerRollout?: SignalTokens;
  /** The planned training job's cost from those tokens. */
  projectedCost?: { rollouts: number; low: number; high: number };
  /** What the check itself was estimated to cost (a cloud check's evaluation job). */
  checkCost?: { low: number; high: number };
  /** Whether the rollouts can open on the board (a file, a folder or a job). */
  hasRollouts: boolean;
}

export interface Bar {
  label: string;
  count: number;
  /** Of the tallest bar: 0 … 1. */
  height: number;
  /** Said to a screen reader and in the tooltip. */
  title: string;
  /** Every rollout solved, or none: such a task teaches nothing unless the reward tells its rollouts apart beyond success. */
  extreme?: boolean;
}

export type SignalLevel = 'good' | 'warn' | 'bad';

/** What the view shows, in the user's words: every string is final, the page only lays it out. */
export type SignalView =
  | { kind: 'reading' | 'running' | 'failed' | 'empty'; title: string; message: string; hasRollouts: boolean }
  | {
      kind: 'report';
      title: string;
      when?: string;
      headline: string;
      level: SignalLevel;
      /** What the zero-advantage share means, one sentence per kind of flat group. */
      meaning: string[];
      figures: { label: string; value: string; hint?: string }[];
      rewards: Bar[];
      difficulty: Bar[];
      difficultyNote: string;
      atGroupSize: { label: string; value: string }[];
      recommendations: string[];
      hasRollouts: boolean;
    };

const pct = (x: number) => `${Math.round(x * 100)} %`;
const plural = (n: number, one: string, many = `${one}s`) => `${n.toLocaleString('en-US')} ${n === 1 ? one : many}`;

/** Below a fifth of groups flat, most of each step learns; from half on, most of it is paid for nothing. */
export function signalLevel(share: number): SignalLevel {
  return share < 0.2 ? 'good' : share < 0.5 ? 'warn' : 'bad';
}

function bars(entries: { label: string; count: number; title: string; extreme?: boolean }[]): Bar[] {
  const tallest = Math.max(1, ...entries.map((e) => e.count));
  return entries.map((e) => ({ ...e, height: e.count / tallest }));
}

const rewardText = (x: number) => (Number.isInteger(x) ? String(x) : x.toFixed(2));

function rewardBars(report: SignalReport): Bar[] {
  const bins = report.rewards?.histogram ?? [];
  // Each bar is labelled by its range (a lower edge alone put 1.0 above "0.9"), with as few decimals as the bin width needs.
  const width = bins.length ? bins[0].to - bins[0].from : 0;
  const digits = width > 0 ? Math.max(0, Math.min(3, Math.ceil(-Math.log10(width) - 1e-9))) : 2;
  const edge = (x: number) => (Number.isInteger(x) ? String(x) : x.toFixed(digits));
  return bars(
    bins.map((bin) => {
      const ranged = bin.to - bin.from > 0;
      const range = ranged ? `${rewardText(bin.from)}–${rewardText(bin.to)}` : rewardText(bin.from);
      const label = ranged ? `${edge(bin.from)}–${edge(bin.to)}` : edge(bin.from);
      return { label, count: bin.count, title: `${plural(bin.count, 'rollout')} with a reward of ${range}` };
    }),
  );
}

function difficultyBars(report: SignalReport): Bar[] {
  const g = report.groupSize;
  return bars(
    report.solvedBy.map((count, k) => ({
      label: `${k}/${g}`,
      count,
      title: `${plural(count, 'task')} solved by ${k} of ${g} rollouts`,
      extreme: k === 0 || k === g,
    })),
  );
}

/** The sentences behind the share: which flat groups there are and why they teach nothing. */
function meaning(report: SignalReport): string[] {
  const z = report.zeroAdvantage;
  const n = report.groups;
  if (!n) return [];
  const out: string[] = [];
  if (report.failed)
    out.push(
      `${plural(report.failed, 'rollout')} of ${report.rollouts.toLocaleString('en-US')} failed: their reward 0 is the agent's failure, not the task's difficulty.`,
    );
  if (z.alwaysSolved) out.push(`${pct(z.alwaysSolved / n)} of tasks are solved by every rollout: they teach nothing.`);
  if (z.neverSolved) out.push(`${pct(z.neverSolved / n)} of tasks are never solved, every rollout scoring the same: they teach nothing.`);
  if (z.samePartialCredit)
    out.push(`${pct(z.samePartialCredit / n)} of tasks give every rollout the same partial credit: the reward does not tell them apart.`);
  const share = z.share ?? 0;
  out.push(
    share > 0
      ? `A training step spends ${pct(share)} of its rollouts on groups with zero advantage: GRPO gets no gradient from them.`
      : 'Every group has rollouts that score differently: each one gives GRPO a gradient.',
  );
  return out;
}

function figures(shown: SignalCheckShown, report: SignalReport): { label: string; value: string; hint?: string }[] {
  const out: { label: string; value: string; hint?: string }[] = [
    { label: 'Rollouts', value: report.rollouts.toLocaleString('en-US') },
    { label: 'Tasks (groups)', value: report.groups.toLocaleString('en-US'), hint: `${report.groupSize} rollouts per task` },
  ];
  if (report.failed)
    out.push({ label: 'Failed rollouts', value: report.failed.toLocaleString('en-US'), hint: 'each counts as reward 0, as in training' });
  for (const [key, n] of Object.entries(report.packVerdicts ?? {})) {
    const note = PACK_VERDICT_DIFFERS[key as PackVerdictDiffers];
    out.push({
      label: note[0].toUpperCase() + note.slice(1),
      value: n.toLocaleString('en-US'),
      hint: `its environment's verdict, beside the success threshold ${report.successThreshold}`,
    });
  }
  if (report.rewards)
    out.push({
      label: 'Mean reward',
      value: report.rewards.mean.toFixed(3),
      hint: `${rewardText(report.rewards.min)} to ${rewardText(report.rewards.max)}`,
    });
  if (report.meanWithinGroupSpread !== null)
    out.push({
      label: 'Mean within-group spread',
      value: report.meanWithinGroupSpread.toFixed(3),
      hint: 'the standard deviation of rewards inside a task: the room GRPO has to learn',
    });
  for (const c of report.components ?? [])
    out.push({
      label: `Spread of ${c.name}`,
      value: c.meanWithinGroupSpread.toFixed(3),
      hint: `the same inside a task for this component; flat in ${pct(c.flatShare)} of ${plural(c.groups, 'task')}`,
    });
  if (shown.tokensPerRollout)
    out.push({
      label: 'Tokens per rollout',
      value: `${Math.round(shown.tokensPerRollout.prefill).toLocaleString('en-US')} prefill, ${Math.round(shown.tokensPerRollout.sample).toLocaleString('en-US')} sample`,
    });
  if (shown.projectedCost)
    out.push({
      label: 'Projected training cost',
      value: `${formatDollars(shown.projectedCost.low)} – ${formatDollars(shown.projectedCost.high)}`,
      hint: `${shown.projectedCost.rollouts.toLocaleString('en-US')} rollouts of the planned job, at these tokens per rollout`,
    });
  if (shown.checkCost)
    out.push({
      label: 'Cost of this check',
      value: `${formatDollars(shown.checkCost.low)} – ${formatDollars(shown.checkCost.high)}`,
      hint: 'estimated at launch',
    });
  return out;
}

/** What the view shows for a check: the report in words and bars, or a sentence saying why there is none (`reading`: the first read has not ended). */
export function signalView(shown: SignalCheckShown, reading = false): SignalView {
  const base = { title: shown.title, hasRollouts: shown.hasRollouts };
  if (reading && !shown.report) return { ...base, kind: 'reading', message: 'Reading the rollouts…' };
  if (shown.status === 'running') {
    const message = 'The check is still playing its rollouts: the report appears when it ends.';
    return { ...base, kind: 'running', message: shown.error ? `${message} ${shown.error}` : message };
  }
  if (shown.status === 'failed' || !shown.report)
    return { ...base, kind: 'failed', message: shown.error ?? 'The check ended without a report.' };
  const report = shown.report;
  if (!report.rollouts)
    return {
      ...base,
      kind: 'empty',
      message: 'No rollouts were found, so there is nothing to report. Check that the source holds rollout records or MLflow traces.',
    };
  const share = report.zeroAdvantage.share;
  const headline =
    share === null
      ? 'No task has two or more rollouts: a learning signal needs groups.'
      : `${pct(share)} of tasks have zero advantage (${report.zeroAdvantage.groups} of ${plural(report.groups, 'group')})`;
  const tied = outcomeTiedSentence(report, report.groups);
  return {
    ...base,
    kind: 'report',
    when: shown.at,
    headline,
    level: share === null ? 'bad' : report.thinEvidence && signalLevel(share) === 'good' ? 'warn' : signalLevel(share),
    meaning: [...meaning(report), ...(tied ? [tied] : []), ...(report.warnings ?? [])],
    figures: figures(shown, report),
    rewards: rewardBars(report),
    difficulty: difficultyBars(report),
    difficultyNote: `Tasks by how many of their ${report.groupSize} rollouts succeeded (reward ≥ ${report.successThreshold}); the highlighted ends, none or all, usually teach nothing.${report.tasksOfOtherSize ? ` ${plural(report.tasksOfOtherSize, 'task')} with another number of rollouts ${report.tasksOfOtherSize === 1 ? 'is' : 'are'} not shown.` : ''}`,
    atGroupSize: report.atGroupSize.map((g) => ({ label: `G = ${g.groupSize}`, value: pct(g.share) })),
    recommendations: report.recommendations,
  };
}
