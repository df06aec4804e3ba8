import { signalReport, type SignalReport } from '../core/signal/report';
import { EXIT_CLEAN, EXIT_FINDINGS, parseOptions, UsageError, type CliCommand } from './command';
import { readTranscriptFile } from './rewardScenarios';

const usage = `Usage: mtrl signal <transcripts.jsonl> [--success-threshold X] [--json]

Will this run learn? GRPO learns only from tasks whose rollouts score differently. From
rollouts played G times per task (an evaluation job with eval_group_size = the planned
group_size, or mtrl rollouts … --transcripts), prints the reward distribution, how many
of G rollouts solved each task, the share of groups with zero advantage, the estimated
share at other group sizes, and what to change.

Options:
  --success-threshold X   a rollout succeeds at reward ≥ X (default 1.0, the service's)
  --json                  the whole report as one JSON object

Exit code: 0 a learning signal in most groups, 1 half or more of the groups teach nothing,
2 the rollouts cannot be read.`;

const pct = (x: number | null) => (x === null ? 'n/a' : `${(x * 100).toFixed(1)} %`);

function text(r: SignalReport, source: string): string {
  const lines = [`${r.rollouts} rollouts of ${r.groups} tasks (${r.groupSize} per task) from ${source}`];
  if (r.rewards)
    lines.push(`  reward: mean ${r.rewards.mean.toFixed(3)}, min ${r.rewards.min.toFixed(2)}, max ${r.rewards.max.toFixed(2)}`);
  if (r.failed) lines.push(`  failed rollouts: ${r.failed}`);
  lines.push(`  tasks by rollouts that succeeded (reward ≥ ${r.successThreshold}):`);
  const widest = Math.max(1, ...r.solvedBy);
  r.solvedBy.forEach((n, k) =>
    lines.push(`    ${String(k).padStart(2)}/${r.groupSize}  ${String(n).padStart(5)}  ${'█'.repeat(Math.round((n / widest) * 30))}`),
  );
  const z = r.zeroAdvantage;
  lines.push(
    `  zero-advantage groups: ${z.groups}/${r.groups} = ${pct(z.share)} (${z.alwaysSolved} always solved, ${z.neverSolved} never solved, ${z.samePartialCredit} the same partial credit)`,
    `  mean within-group spread: ${r.meanWithinGroupSpread === null ? 'n/a' : r.meanWithinGroupSpread.toFixed(3)}`,
    `  estimated zero-advantage share by group size: ${r.atGroupSize.map((g) => `G=${g.groupSize} ${pct(g.share)}`).join(', ')}`,
    '',
    ...r.recommendations.map((s) => `- ${s}`),
  );
  return lines.join('\n');
}

export const signalCommand: CliCommand = {
  name: 'signal',
  usage,
  async run(args, io) {
    const { values, positionals } = parseOptions(args, usage, {
      allowPositionals: true,
      options: { 'success-threshold': { type: 'string', default: '1.0' }, json: { type: 'boolean', default: false } },
    });
    if (positionals.length !== 1) throw new UsageError('give one file of transcripts, e.g. mtrl signal run.jsonl');
    const threshold = Number(values['success-threshold']);
    if (!Number.isFinite(threshold)) throw new UsageError(`--success-threshold takes a number, got '${values['success-threshold']}'`);
    const report = signalReport(await readTranscriptFile(positionals[0]), threshold);
    io.out(values.json ? JSON.stringify(report) : text(report, positionals[0]));
    return report.zeroAdvantage.share !== null && report.zeroAdvantage.share >= 0.5 ? EXIT_FINDINGS : EXIT_CLEAN;
  },
};
