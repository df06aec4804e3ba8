import { AWS_OPTIONS, awsFromOptions } from './awsOptions';
import { hasWarning } from '../core/health/check';
import type { HealthReport } from '../core/health/findings';
import { outsideText } from '../core/text/display';
import { SCAN_DEFAULTS } from '../core/scan/settings';
import { loadJobHealth } from '../services/health/load';
import { scanJobRollouts } from '../services/health/scan';
import { EXIT_CLEAN, EXIT_FINDINGS, EXIT_USAGE, parseOptions, UsageError, type CliCommand } from './command';
import { jobFromArgument } from './jobArgument';
import { metricsMissing } from './metricsFailure';

const usage = `Usage: mtrl health <job-name|job-arn> [--evaluation] [--scan] [--json] [--region R] [--endpoint URL] [--profile P]

Checks a job's MLflow curves for the ways runs go wrong: responses cut at
sampling_max_tokens (truncation), groups that teach nothing (no-signal), collapse,
validation falling while training reward rises (overfitting), failing rollouts,
and a running job with no new step (stalled). Each finding names its step, the
metric, the threshold crossed (the defaults of the mtrl.health.* settings) and what
to do; metrics the run does not log are listed as not checked.

  --evaluation  the name is an evaluation job (default: a training job; an ARN says which)
  --scan        also scan the job's rollouts (mtrl scan): a kind whose share rose from 0 % over its
                steps is a rising-scan finding, as in the editor's watch of a running job
  --json        {"job", "steps", "findings": [{"kind", "severity", "step", "metric", "sentence", "action"}],
                "not_checked": [{"kind", "reason"}]}
  --region      the job's region (default: from the ARN, AWS_REGION or us-east-1)
  --endpoint    one endpoint for every AWS call, MLflow included (also AWS_ENDPOINT_URL)
  --profile     AWS profile from ~/.aws

Exit code: 0 no warning, 1 a warning, 2 the metrics cannot be read (or usage).`;

function reportJson(job: string, report: HealthReport) {
  return {
    job,
    steps: report.steps,
    // The issue's six fields, then the threshold crossed (added, for scripts that want the setting to change).
    findings: report.findings.map(({ kind, severity, step, metric, sentence, action, threshold }) => ({
      kind,
      severity,
      step,
      metric,
      sentence,
      action,
      threshold,
    })),
    not_checked: report.notChecked,
    ...(report.refused ? { refused: report.refused } : {}),
  };
}

function reportText(job: string, runId: string, report: HealthReport): string {
  const lines = [outsideText(`${job} · run ${runId} · ${report.steps} ${report.steps === 1 ? 'step' : 'steps'}`)];
  if (report.refused) lines.push(outsideText(`Not read: ${report.refused}`));
  if (!report.findings.length) lines.push('No finding: nothing crossed a threshold.');
  for (const f of report.findings) {
    lines.push('', `${f.severity === 'warning' ? 'WARNING' : 'info'} ${f.kind} at step ${f.step}: ${f.sentence}`);
    lines.push(`  ${f.metric}: ${f.values.map((v) => `step ${v.step} ${Math.round(v.value * 1e4) / 1e4}`).join(', ')}`);
    lines.push(`  threshold: ${f.threshold.text} (${f.threshold.setting} = ${f.threshold.value})`);
    lines.push(`  what to do: ${f.action}`);
  }
  if (report.notChecked.length) {
    lines.push('', 'Not checked:');
    for (const n of report.notChecked) lines.push(`  ${n.kind}: ${n.reason}`);
  }
  return lines.join('\n');
}

export const healthCommand: CliCommand = {
  name: 'health',
  usage,
  async run(args, io) {
    const { values, positionals } = parseOptions(args, usage, {
      options: { evaluation: { type: 'boolean' }, json: { type: 'boolean' }, scan: { type: 'boolean' }, ...AWS_OPTIONS },
      allowPositionals: true,
    });
    if (positionals.length !== 1) throw new UsageError('give one job name or job ARN.');
    const ref = jobFromArgument(positionals[0], values);
    const { aws, settings } = awsFromOptions({ ...values, region: ref.region });
    try {
      const scan =
        values.scan && !values.evaluation
          ? await scanJobRollouts(aws, ref, SCAN_DEFAULTS, io.signal ?? new AbortController().signal)
          : undefined;
      const { metrics, report } = await loadJobHealth(aws, ref, { signal: io.signal, scan });
      io.out(values.json ? JSON.stringify(reportJson(metrics.job.name, report)) : reportText(metrics.job.name, metrics.runId, report));
      return hasWarning(report) ? EXIT_FINDINGS : EXIT_CLEAN;
    } catch (error) {
      io.err(
        `mtrl health: ${metricsMissing(error, { jobName: ref.jobName, profile: values.profile, endpoint: settings.endpoint, region: ref.region })}`,
      );
      return EXIT_USAGE;
    } finally {
      aws.reset();
    }
  },
};
