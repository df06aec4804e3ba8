import { regionNames } from '../core/jobs/regions';
import { resourceRef, type ResourceRef } from '../core/resources/references';
import { awsCleanupTarget } from '../services/resources/awsTarget';
import { runCleanup, type CleanupResult, type StopCause } from '../services/resources/cleanup';
import { planCleanup } from '../services/resources/cleanupPlan';
import { AWS_OPTIONS, AWS_OPTIONS_USAGE, awsFromOptions } from './awsOptions';
import type { RegionsScope } from '../services/resources/cleanupPlan';
import { planJson, planText, resultJson, resultText, stoppedBeforeStart, summaryLine } from './cleanupReport';
import { EXIT_CLEAN, EXIT_FINDINGS, EXIT_USAGE, parseOptions, UsageError, type CliCommand, type CliIO } from './command';
import { regionInventory } from './resources';

const usage = `Usage: mtrl cleanup <what>… (--dry-run | --yes) [--region R] [--endpoint URL] [--profile P] [--json]

Deletes what jobs left behind. <what> is an agent runtime ARN, an IAM role ARN,
an MLflow app ARN, an S3 prefix (s3://bucket/prefix/: every object under it) or a
notification rule ARN (the EventBridge rule a launch made: its targets, then the rule).
Only folders a job read or wrote are cleaned up, never a whole bucket.
A resource a running job uses is refused, checked again just before each delete.
Roles and S3 are account-wide: the jobs of every MTRL region (us-east-1,
us-west-2) and --region are checked, and they are refused if one region cannot
be read. --exclude-regions takes regions out of scope by name (an organization
policy denies one, say): their jobs are not read, and the output lists them as
not checked. A role's policies are detached or deleted first; S3 objects go 1,000
per call. Deleting an MLflow app deletes its experiment history.

--deadline S or Ctrl-C stops between calls (a call already sent gets 10 s to
answer; Ctrl-C again abandons it) and prints exactly what was deleted.

  --dry-run   print what would be deleted and what is refused; delete nothing
  --exclude-regions R,…  regions whose jobs are not read (a job there that uses a role or S3
              prefix is not seen); not --region itself
  --yes       delete without asking (there is no prompt: one of the two is required)
${AWS_OPTIONS_USAGE}
  --json      print the plan or the result as JSON (the result lists every deleted key)

Exit code: 0 everything deleted (or deletable), 1 something refused or left,
2 usage or I/O error, or stopped by the deadline or Ctrl-C.`;

/** The first Ctrl-C (or the deadline) stops between calls; a second Ctrl-C abandons the call in flight. */
function stopControls(io: CliIO) {
  const stop = new AbortController();
  const abandon = new AbortController();
  const onDeadline = () => stop.abort(io.signal?.reason);
  io.signal?.addEventListener('abort', onDeadline, { once: true });
  const onInterrupt = () => {
    if (stop.signal.aborted) return abandon.abort(new DOMException('abandoned', 'AbortError'));
    stop.abort(new DOMException('cancelled', 'AbortError'));
    io.err('Stopping after the call in flight (Ctrl-C again to abandon it)…');
  };
  process.on('SIGINT', onInterrupt);
  return {
    stop: stop.signal,
    abandon: abandon.signal,
    cause: (): StopCause => ((stop.signal.reason as Error | undefined)?.name === 'TimeoutError' ? 'deadline' : 'cancel'),
    dispose() {
      process.removeListener('SIGINT', onInterrupt);
      io.signal?.removeEventListener('abort', onDeadline);
    },
  };
}

export const cleanupCommand: CliCommand = {
  name: 'cleanup',
  usage,
  async run(args, io) {
    const { values, positionals } = parseOptions(args, usage, {
      options: {
        ...AWS_OPTIONS,
        'dry-run': { type: 'boolean', default: false },
        'exclude-regions': { type: 'string' },
        yes: { type: 'boolean', default: false },
        json: { type: 'boolean', default: false },
      },
      allowPositionals: true,
    });
    if (values['dry-run'] === values.yes) throw new UsageError('Say --dry-run to see the plan or --yes to delete (exactly one of them).');
    if (!positionals.length)
      throw new UsageError(
        'Name what to delete: an agent runtime, role, MLflow app or notification rule ARN, or an s3:// prefix (see `mtrl resources`).',
      );
    const refs: ResourceRef[] = positionals.map((text) => resourceRef(text) ?? badRef(text));
    const { aws, settings, explain } = awsFromOptions(values, io.signal);
    const excluded = excludedRegions(values['exclude-regions'], settings.region);
    const controls = stopControls(io);
    const print = (result: CleanupResult, scope: RegionsScope): number => {
      io.out(values.json ? JSON.stringify(resultJson(result, scope), null, 2) : resultText(result, scope));
      if (result.stopped) io.err(`mtrl cleanup: ${summaryLine(result)}`);
      return result.stopped ? EXIT_USAGE : result.remaining.length ? EXIT_FINDINGS : EXIT_CLEAN;
    };
    try {
      const inventory = await regionInventory(aws, settings.region, explain, controls.stop, excluded).catch((error: unknown) => {
        if (controls.stop.aborted) return undefined;
        throw error;
      });
      if (!inventory) return print(stoppedBeforeStart(refs, controls.cause()), { regionsChecked: [], regionsNotChecked: [] });
      // An unreadable region is said once, in the output's regions not checked.
      for (const problem of inventory.problems) if (!inventory.unreadableRegions.some((u) => u.reason === problem)) io.err(problem);
      const plan = planCleanup(inventory, refs);
      if (values['dry-run']) {
        io.out(values.json ? JSON.stringify(planJson(plan), null, 2) : planText(plan));
        return plan.refused.length ? EXIT_FINDINGS : EXIT_CLEAN;
      }
      const result = await runCleanup(
        plan,
        awsCleanupTarget(aws, [settings.region], explain, excluded),
        (p) => values.json || io.err(p.message),
        controls.stop,
        controls.abandon,
      );
      return print(result, plan);
    } catch (error) {
      throw new UsageError(explain(error, 'Cleanup'));
    } finally {
      controls.dispose();
      aws.reset();
    }
  },
};

/** --exclude-regions as region names; the region the cleanup runs in cannot be one (its runtimes and apps are what it deletes). */
function excludedRegions(given: string | undefined, region: string): string[] {
  if (given === undefined) return [];
  let names: string[];
  try {
    names = regionNames(given, '--exclude-regions');
  } catch (error) {
    throw new UsageError((error as Error).message);
  }
  if (names.includes(region)) throw new UsageError(`--exclude-regions cannot take out ${region}: it is --region, where the cleanup runs.`);
  return names;
}

function badRef(text: string): never {
  throw new UsageError(`"${text}" is neither an agent runtime, IAM role, MLflow app or notification rule ARN nor an s3:// prefix.`);
}
