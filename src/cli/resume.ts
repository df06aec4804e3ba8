import { AWS_OPTIONS, AWS_OPTIONS_USAGE, awsFromOptions } from './awsOptions';
import { resumeTitle } from '../core/jobs/checkpoint';
import { createJobRequest } from '../core/jobs/jobfile';
import { describeCheck } from '../core/jobs/preflight';
import { parseJobArn } from '../core/jobs/reference';
import { launchJob, reviewJob } from '../services/launch/launch';
import { planResume } from '../services/launch/resume';
import { describeReview } from '../services/launch/review';
import { EXIT_CLEAN, EXIT_FINDINGS, EXIT_USAGE, parseOptions, UsageError, type CliCommand } from './command';
import { cliLaunchDeps, findingOf } from './launchDeps';

const usage = `Usage: mtrl resume <job-name|job-arn> [--json] [--yes] [--region R] [--endpoint URL] [--profile P]

Resumes a stopped or failed training job from its last checkpoint (DescribeJob's
ResumableCheckpoint): a new job with the checkpoint as InputModelPackageArn and the
same base model, LoRA, hyperparameters and data, running the steps after the checkpoint.
Prints the pre-flight, the arithmetic and the cost of the remaining steps; nothing is
created without --yes.

  --yes       create the job when the pre-flight finds no error
  --json      {"from", "step", "findings": [{"code", "severity", "message", "fix"}], "arithmetic",
              "estimate", "request", "created"}
${AWS_OPTIONS_USAGE}

Exit code: 0 reviewed (and created with --yes), 1 the job cannot resume or a pre-flight
error, 2 usage or AWS error.`;

export const resumeCommand: CliCommand = {
  name: 'resume',
  usage,
  async run(args, io) {
    const { values, positionals } = parseOptions(args, usage, {
      options: { json: { type: 'boolean' }, yes: { type: 'boolean' }, ...AWS_OPTIONS },
      allowPositionals: true,
    });
    if (positionals.length !== 1) throw new UsageError('give one training job name or job ARN.');
    const arn = parseJobArn(positionals[0]);
    if (positionals[0].startsWith('arn:') && (!arn || arn.category !== 'AgentRFT'))
      throw new UsageError(`"${positionals[0]}" is not a training job ARN (arn:aws:sagemaker:<region>:<account>:job/AgentRFT/<name>).`);
    const { aws, settings, explain } = awsFromOptions({ ...values, region: arn?.region ?? values.region }, io.signal);
    const region = settings.region;
    const ref = { jobName: arn?.jobName ?? positionals[0], category: 'AgentRFT' as const };
    const deps = cliLaunchDeps(aws, explain);
    try {
      const plan = await planResume(aws, ref, region, io.signal);
      if ('problem' in plan) {
        if (values.json) io.out(JSON.stringify({ from: ref.jobName, problem: plan.problem }, null, 2));
        else io.err(plan.problem);
        return EXIT_FINDINGS;
      }
      const review = await reviewJob(plan.job, deps, io.signal);
      if (!review) return EXIT_USAGE;
      const errors = review.checks.some((c) => c.level === 'fail');
      const created = values.yes && !errors ? await launchJob(plan.job, deps, {}, review) : undefined;
      if (created && !created.launched) {
        io.err(created.reason ?? `Creating ${plan.job.JobName} failed.`);
        return EXIT_USAGE;
      }
      if (values.json)
        io.out(
          JSON.stringify(
            {
              from: plan.from,
              step: plan.point.step,
              findings: review.checks.map(findingOf),
              arithmetic: review.arithmetic,
              estimate: review.estimate ?? null,
              request: createJobRequest(plan.job),
              created: created?.arn ?? null,
            },
            null,
            2,
          ),
        );
      else {
        io.out(`${resumeTitle(plan.point)} of ${plan.from} as ${plan.job.JobName} (checkpoint ${plan.point.checkpointArn})`);
        for (const line of [...describeReview(review), ...review.checks.map(describeCheck)]) io.out(line);
        if (created?.arn) io.out(`Created ${created.arn}`);
        else if (errors) io.out('Not created: fix the errors above.');
        else io.out('Not created: run again with --yes to create it.');
      }
      return errors ? EXIT_FINDINGS : EXIT_CLEAN;
    } catch (error) {
      io.err(explain(error, `Resuming ${ref.jobName}`, region));
      return EXIT_USAGE;
    }
  },
};
