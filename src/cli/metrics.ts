import { AWS_OPTIONS, awsFromOptions } from './awsOptions';
import { droppedSentence } from '../core/metrics/points';
import { columnOf, stepRows, stepRowsCsv, type StepRow } from '../core/metrics/table';
import { outsideText } from '../core/text/display';
import { loadJobMetrics, noMetricsYet, type JobMetrics } from '../services/metrics/load';
import { EXIT_CLEAN, EXIT_FINDINGS, parseOptions, UsageError, type CliCommand } from './command';
import { jobFromArgument } from './jobArgument';
import { metricsMissing } from './metricsFailure';

const usage = `Usage: mtrl metrics <job-name|job-arn> [--evaluation] [--keys k1,k2] [--json|--csv] [--region R] [--endpoint URL] [--profile P]

Prints a job's MLflow metrics per step, read from the SageMaker MLflow app its
config names (the run from ServiceOutput.MlflowDetails, else by experiment and run name).

  --evaluation  the name is an evaluation job (default: a training job; an ARN says which)
  --keys        metric keys to print, comma-separated (default: the SDK's table for text,
                every key of the run for --json and --csv)
  --json        {"job", "run_id", "keys", "steps": [{"step": 0, "<key>": value, …}]}
  --csv         step,<key>,… one line per step
  --region      the job's region (default: from the ARN, AWS_REGION or us-east-1)
  --endpoint    one endpoint for every AWS call, MLflow included (also AWS_ENDPOINT_URL)
  --profile     AWS profile from ~/.aws

Exit code: 0 metrics printed, 1 no metrics (no MLflow config, no run or nothing logged yet),
2 usage, AWS or MLflow error.`;

/** The columns the SDK's get_training_metrics() prints, with validation pass@1 after them. */
export const TABLE_KEYS = [
  'rollout/reward/mean',
  'rollout/turns/mean',
  'training/total_tokens',
  'training/num_trajectories',
  'val/reward/pass_at_1',
];

/** The `--json` shape fixed by the issue. */
function metricsJson(m: JobMetrics, keys: readonly string[]): { job: string; run_id: string; keys: string[]; steps: StepRow[] } {
  return { job: m.job.name, run_id: m.runId, keys: keys.map(columnOf), steps: stepRows(m.series, keys) };
}

function table(rows: StepRow[], keys: string[]): string {
  const header = ['step', ...keys.map((k) => outsideText(columnOf(k), 80))];
  const cells = rows.map((r) => [
    String(r.step),
    ...keys.map((k) => {
      const value = r[columnOf(k)];
      return value === undefined ? '' : String(Math.round(value * 1e4) / 1e4);
    }),
  ]);
  // A loop, not Math.max(...cells): spreading a long run's cells overflows the call stack.
  const widths = header.map((h) => h.length);
  for (const line of cells) for (let i = 0; i < line.length; i++) if (line[i].length > widths[i]) widths[i] = line[i].length;
  return [header, ...cells].map((line) => line.map((c, i) => c.padStart(widths[i])).join('  ')).join('\n');
}

export const metricsCommand: CliCommand = {
  name: 'metrics',
  usage,
  async run(args, io) {
    const { values, positionals } = parseOptions(args, usage, {
      options: {
        evaluation: { type: 'boolean' },
        keys: { type: 'string' },
        json: { type: 'boolean' },
        csv: { type: 'boolean' },
        ...AWS_OPTIONS,
      },
      allowPositionals: true,
    });
    if (positionals.length !== 1) throw new UsageError('give one job name or job ARN.');
    if (values.json && values.csv) throw new UsageError('choose one of --json and --csv.');
    const ref = jobFromArgument(positionals[0], values);
    const asked = values.keys
      ?.split(',')
      .map((k) => k.trim())
      .filter(Boolean);
    const { aws, settings } = awsFromOptions({ ...values, region: ref.region });
    try {
      const wholeRun = values.json || values.csv || ref.category === 'AgentRFTEvaluation';
      const m = await loadJobMetrics(aws, ref, { keys: asked ?? (wholeRun ? undefined : TABLE_KEYS), signal: io.signal });
      const dropped = droppedSentence(m.dropped);
      if (dropped) io.err(dropped);
      const missing = (asked ?? []).filter((k) => !m.keys.includes(k));
      if (missing.length) io.err(outsideText(`the run has no ${missing.join(', ')}; its keys: ${m.keys.join(', ') || 'none yet'}`, 2000));
      const keys = Object.keys(m.series);
      if (m.keys.length === 0 || keys.every((k) => m.series[k].length === 0)) {
        if (values.json) io.out(JSON.stringify(metricsJson(m, keys)));
        else io.err(noMetricsYet(m));
        return EXIT_FINDINGS;
      }
      if (values.json) io.out(JSON.stringify(metricsJson(m, keys)));
      else if (values.csv) io.out(stepRowsCsv(stepRows(m.series, keys), keys));
      else {
        io.out(outsideText(`${m.job.name} · run ${m.runId} · ${m.runStatus ?? ''}`));
        io.out(table(stepRows(m.series, keys), keys));
        if (!asked && m.keys.length > keys.length)
          io.out(`${m.keys.length - keys.length} more keys: see them with --keys <k1,k2> or --json.`);
      }
      return EXIT_CLEAN;
    } catch (error) {
      io.err(metricsMissing(error, { jobName: ref.jobName, profile: values.profile, endpoint: settings.endpoint, region: ref.region }));
      return EXIT_FINDINGS;
    } finally {
      aws.reset();
    }
  },
};
