import { readFile, stat } from 'node:fs/promises';
import { notificationRulePlan } from '../services/launch/notifications';
import { callerIdentity } from '../aws/sts';
import { createJobRequest, parseJobFile, type JobFile } from '../core/jobs/jobfile';
import type { CheckResult } from '../core/jobs/checkResult';
import { duplicateKeyChecks } from '../core/jobs/duplicateKeys';
import { describeCheck } from '../core/jobs/preflight';
import { describeEstimate } from '../core/jobs/estimate';
import { launchJob, reviewJob } from '../services/launch/launch';
import { describeReview, type Review } from '../services/launch/review';
import { awsFromOptions } from './awsOptions';
import { EXIT_CLEAN, EXIT_FINDINGS, parseOptions, UsageError, type CliCommand } from './command';
import { cliLaunchDeps, findingOf } from './launchDeps';

const usage = `Usage: mtrl launch FILE.mtrl.json [--json] [--yes] [--lambda-smoke] [--endpoint URL] [--profile P]

Runs the editor's pre-flight, review and cost estimate on a job file, against AWS
(or the emulator) in the file's Region, and prints the CreateJob request it would
send. Nothing is created without --yes; with --yes the job is created only when no
check failed (warnings do not block). A file's "Notifications" (the SDK's: an SNS topic
for Completed, Failed, Stopped) is checked too, and its EventBridge rule made before
CreateJob; the rule matches training-job events, so it may never fire for MTRL jobs.

  --json          {"findings":[{"code","severity","message","fix"}],"verdict","arithmetic",
                  "settings","estimate","request","notifications","launched","jobArn"}; severity error|warning|info
  --yes           create the job when no check failed
  --lambda-smoke  call a bring-your-own-agent Lambda once with the documented request
  --endpoint      one endpoint for every AWS call, e.g. the emulator's URL (default: AWS_ENDPOINT_URL)
  --profile       AWS profile from ~/.aws

Exit code: 0 no pre-flight error, 1 a pre-flight error (or a broken job file), 2 usage, AWS or CreateJob error.`;

async function readJobFile(path: string): Promise<{ job?: JobFile; problems: string[]; warnings: CheckResult[] }> {
  let text: string;
  try {
    // A FIFO or a device would block the read past the deadline, and the pending read keeps the process alive.
    if (!(await stat(path)).isFile()) throw new Error('not a regular file; give the *.mtrl.json job file');
    text = await readFile(path, 'utf8');
  } catch (error) {
    throw new UsageError(`Cannot read ${path}: ${(error as Error).message}`);
  }
  const parsed = parseJobFile(text);
  return parsed.jobFile
    ? { job: parsed.jobFile, problems: [], warnings: duplicateKeyChecks(text) }
    : { problems: parsed.problems.map((p) => p.message), warnings: [] };
}

function text(job: JobFile, review: Review, checks: readonly CheckResult[], outcome: string): string {
  return [
    `Pre-flight of ${job.JobName} (${job.JobCategory}, ${job.Region}):`,
    ...checks.map((c) => `  ${describeCheck(c)}`),
    ...describeReview(review).map((line) => `  ${line}`),
    outcome,
  ].join('\n');
}

export const launchCommand: CliCommand = {
  name: 'launch',
  usage,
  async run(args, io) {
    const { values, positionals } = parseOptions(args, usage, {
      allowPositionals: true,
      options: {
        json: { type: 'boolean', default: false },
        yes: { type: 'boolean', default: false },
        'lambda-smoke': { type: 'boolean', default: false },
        endpoint: { type: 'string' },
        profile: { type: 'string' },
      },
    });
    if (positionals.length !== 1) throw new UsageError(`Give one job file.\n${usage.split('\n', 1)[0]}`);
    const { job, problems, warnings } = await readJobFile(positionals[0]);
    if (!job) {
      const findings = problems.map((message) => ({ code: 'jobFile', severity: 'error', message }));
      io.out(
        values.json
          ? JSON.stringify({ findings }, null, 2)
          : [`${positionals[0]} is not a valid job file:`, ...problems.map((p) => `  ✗ ${p}`)].join('\n'),
      );
      return EXIT_FINDINGS;
    }
    const { aws, explain } = awsFromOptions({ region: job.Region, endpoint: values.endpoint, profile: values.profile }, io.signal);
    const deps = cliLaunchDeps(aws, explain, values['lambda-smoke']);
    try {
      // AWS out of reach (no credentials, wrong endpoint) is exit 2, not a pre-flight verdict on the file.
      await callerIdentity(aws.sts(job.Region), io.signal).catch((error: unknown) => {
        throw new UsageError(explain(error, 'Reading the caller identity', job.Region));
      });
      const review = await reviewJob(job, deps, io.signal);
      if (!review) throw new UsageError('The pre-flight was cancelled.');
      const blocked = review.verdict === 'fail';
      const launch = values.yes && !blocked ? await launchJob(job, deps, {}, review) : undefined;
      if (launch && !launch.launched) throw new UsageError(launch.reason ?? `Creating ${job.JobName} failed.`);
      const outcome = launch?.arn
        ? `Launched ${job.JobName}: ${launch.arn}`
        : blocked
          ? 'Not launched: fix the errors above.'
          : 'Not launched: run again with --yes to create the job.';
      if (values.json)
        io.out(
          JSON.stringify(
            {
              findings: [...warnings, ...review.checks].map(findingOf),
              verdict: review.verdict,
              arithmetic: review.arithmetic,
              settings: review.settings,
              estimate: review.estimate ?? null,
              ...(review.estimate ? { estimateText: describeEstimate(review.estimate) } : { estimateMissing: review.estimateMissing }),
              request: createJobRequest(job),
              ...(job.Notifications && { notifications: notificationRulePlan(job.Notifications) }),
              launched: launch?.launched === true,
              ...(launch?.arn && { jobArn: launch.arn }),
            },
            null,
            2,
          ),
        );
      else io.out(text(job, review, [...warnings, ...review.checks], outcome));
      return blocked ? EXIT_FINDINGS : EXIT_CLEAN;
    } finally {
      aws.reset();
    }
  },
};
