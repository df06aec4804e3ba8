import { AWS_OPTIONS, awsFromOptions } from './awsOptions';
import { comparisonCsv, comparisonMarkdown, intervalText } from '../core/evaluation/compare';
import { DEFAULT_PRICING } from '../core/jobs/pricing';
import { comparisonDeltas, comparisonFromJobs } from '../services/evaluations';
import { EXIT_CLEAN, EXIT_FINDINGS, parseOptions, UsageError, type CliCommand } from './command';

const usage = `Usage: mtrl compare <evaluation-job>… [--baseline <job>] [--json | --markdown | --csv] [--region R] [--endpoint URL] [--profile P]

Compares completed evaluation jobs: pass@1 with a 95 % Wilson interval (from the succeeded and
failed rollouts), mean reward, rollouts, tokens and cost, read from each evaluation's MLflow run
(ServiceOutput.EvaluationMetrics only when there is no run); then each job against the baseline (default: the
first job) with Newcombe's interval for the difference, marked where it excludes zero.

  --baseline  the job the others are compared with (default: the first one given)
  --json      {"jobs":[{job, pass_at_1, interval, mean_reward, rollouts, …}], "deltas":[{job, baseline, delta, interval, significant}]}
  --markdown  a Markdown table for a write-up
  --csv       one row per job
  --region, --endpoint, --profile   AWS settings (the endpoint also from AWS_ENDPOINT_URL)

Exit code: 0 compared, 1 a job could not be compared (not completed, no metrics), 2 usage or AWS error.`;

export const compareCommand: CliCommand = {
  name: 'compare',
  usage,
  async run(args, io) {
    const { values, positionals: jobs } = parseOptions(args, usage, {
      options: {
        baseline: { type: 'string' },
        json: { type: 'boolean', default: false },
        markdown: { type: 'boolean', default: false },
        csv: { type: 'boolean', default: false },
        ...AWS_OPTIONS,
      },
      allowPositionals: true,
    });
    if (jobs.length === 0) throw new UsageError('Name at least one evaluation job.');
    if ([values.json, values.markdown, values.csv].filter(Boolean).length > 1)
      throw new UsageError('Choose one of --json, --markdown and --csv.');
    const baseline = values.baseline;
    if (baseline && !jobs.includes(baseline)) jobs.unshift(baseline);
    const { aws, settings, explain } = awsFromOptions(values);
    let comparison;
    try {
      comparison = await comparisonFromJobs(aws, settings.region, jobs, DEFAULT_PRICING);
    } catch (error) {
      throw new UsageError(explain(error, 'Reading the evaluation jobs'));
    } finally {
      aws.reset();
    }
    const deltas = comparisonDeltas(comparison, baseline);
    for (const { job, reason } of comparison.skipped) io.err(`${job}: not compared, ${reason}.`);
    if (values.json) {
      io.out(
        JSON.stringify(
          {
            jobs: comparison.results.map((r) => ({
              job: r.job,
              pass_at_1: r.passAt1,
              interval: r.interval,
              succeeded: r.succeeded,
              rollouts: r.rollouts,
              mean_reward: r.meanReward ?? null,
              pass_at_k: Object.fromEntries(r.passAtK.map((p) => [String(p.k), p.value])),
              tokens: r.tokens ?? null,
              cost: r.cost ?? null,
              source: comparison.sources.get(r.job) ?? null,
            })),
            deltas: deltas.map((d) => ({
              job: d.job,
              baseline: d.baseline,
              delta: d.delta,
              interval: d.interval,
              significant: d.significant,
            })),
          },
          null,
          2,
        ),
      );
    } else if (values.markdown) io.out(comparisonMarkdown(comparison.results, deltas).trimEnd());
    else if (values.csv) io.out(comparisonCsv(comparison.results, deltas).trimEnd());
    else {
      for (const r of comparison.results)
        io.out(
          `${r.job}: pass@1 ${(r.passAt1 * 100).toFixed(1)} % ${intervalText(r.interval)} (${r.succeeded}/${r.rollouts}) from ${comparison.sources.get(r.job) ?? '?'}`,
        );
      for (const d of deltas) {
        const points = `${d.delta >= 0 ? '+' : '−'}${Math.abs(d.delta * 100).toFixed(1)}`;
        io.out(
          `${d.job} vs ${d.baseline}: ${points} points ${intervalText(d.interval, true)}, ${d.significant ? 'more than noise' : 'within noise'}`,
        );
      }
    }
    return comparison.skipped.length ? EXIT_FINDINGS : EXIT_CLEAN;
  },
};
