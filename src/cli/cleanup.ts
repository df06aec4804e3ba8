import { DEFAULT_PRICING } from '../core/jobs/pricing';
import { kindWord, resourceRef, type ResourceRef } from '../core/resources/references';
import { awsCleanupTarget } from '../services/resources/awsTarget';
import { planCleanup, runCleanup, type CleanupPlan, type CleanupResult } from '../services/resources/cleanup';
import { loadInventory } from '../services/resources/inventory';
import { AWS_OPTIONS, AWS_OPTIONS_USAGE, awsFromOptions } from './awsOptions';
import { EXIT_CLEAN, EXIT_FINDINGS, parseOptions, UsageError, type CliCommand } from './command';

const usage = `Usage: mtrl cleanup <what>… (--dry-run | --yes) [--region R] [--endpoint URL] [--profile P] [--json]

Deletes what jobs left behind. <what> is an agent runtime ARN, an IAM role ARN,
an MLflow app ARN or an S3 prefix (s3://bucket/prefix/: every object under it).
A resource a running job uses is refused, checked again just before each delete.
A role's policies are detached or deleted first; S3 objects go 1,000 per call.
Deleting an MLflow app deletes its experiment history.

  --dry-run   print what would be deleted and what is refused; delete nothing
  --yes       delete without asking (there is no prompt: one of the two is required)
${AWS_OPTIONS_USAGE}
  --json      print the plan or the result as JSON

Exit code: 0 everything deleted (or deletable), 1 something refused or left, 2 usage or I/O error.`;

function planText(plan: CleanupPlan): string {
  return [
    ...plan.steps.map(
      (s) => `would delete ${kindWord(s.item.ref.kind)} ${s.item.label}: ${s.action}${s.warning ? `\n  warning: ${s.warning}` : ''}`,
    ),
    ...plan.refused.map((r) => `refused ${kindWord(r.ref.kind)} ${r.label}: ${r.reason}`),
  ].join('\n');
}

function resultText(result: CleanupResult): string {
  return [
    ...result.deleted.map((i) => `deleted ${kindWord(i.ref.kind)} ${i.label}`),
    ...(result.remaining.length ? ['Still there:'] : []),
    ...result.remaining.map((r) => `  ${kindWord(r.ref.kind)} ${r.label}: ${r.reason}`),
  ].join('\n');
}

export const cleanupCommand: CliCommand = {
  name: 'cleanup',
  usage,
  async run(args, io) {
    const { values, positionals } = parseOptions(args, usage, {
      options: {
        ...AWS_OPTIONS,
        'dry-run': { type: 'boolean', default: false },
        yes: { type: 'boolean', default: false },
        json: { type: 'boolean', default: false },
      },
      allowPositionals: true,
    });
    if (values['dry-run'] === values.yes) throw new UsageError('Say --dry-run to see the plan or --yes to delete (exactly one of them).');
    if (!positionals.length)
      throw new UsageError('Name what to delete: an agent runtime, role or MLflow app ARN, or an s3:// prefix (see `mtrl resources`).');
    const refs: ResourceRef[] = positionals.map((text) => resourceRef(text) ?? badRef(text));
    const { aws, settings, explain } = awsFromOptions(values);
    const controller = new AbortController();
    const onInterrupt = () => controller.abort();
    process.once('SIGINT', onInterrupt);
    try {
      const inventory = await loadInventory(aws, {
        regions: [settings.region],
        pricing: DEFAULT_PRICING,
        now: new Date(),
        explain,
        signal: controller.signal,
      });
      for (const problem of inventory.problems) io.err(problem);
      const plan = planCleanup(inventory, refs);
      if (values['dry-run']) {
        io.out(
          values.json
            ? JSON.stringify(
                {
                  steps: plan.steps.map((s) => ({ ...s.item.ref, label: s.item.label, action: s.action, warning: s.warning })),
                  refused: plan.refused,
                },
                null,
                2,
              )
            : planText(plan),
        );
        return plan.refused.length ? EXIT_FINDINGS : EXIT_CLEAN;
      }
      const result = await runCleanup(
        plan,
        awsCleanupTarget(aws, [settings.region]),
        (p) => values.json || io.err(p.message),
        controller.signal,
      );
      io.out(
        values.json
          ? JSON.stringify(
              {
                deleted: result.deleted.map((i) => ({ ...i.ref, label: i.label })),
                remaining: result.remaining,
                cancelled: result.cancelled,
              },
              null,
              2,
            )
          : resultText(result),
      );
      return result.remaining.length ? EXIT_FINDINGS : EXIT_CLEAN;
    } catch (error) {
      throw new UsageError(explain(error, 'Cleanup'));
    } finally {
      process.removeListener('SIGINT', onInterrupt);
      aws.reset();
    }
  },
};

function badRef(text: string): never {
  throw new UsageError(`"${text}" is neither an agent runtime, IAM role or MLflow app ARN nor an s3:// prefix.`);
}
