import { existsSync, statSync } from 'node:fs';
import path from 'node:path';
import { allPackScanners } from '../core/environments/registry';
import { DEFAULT_TIMEOUT_SECONDS, MAX_TIMEOUT_SECONDS } from '../core/reward/protocol';
import {
  GENERIC_KINDS,
  parseThreshold,
  RolloutScan,
  SCAN_DEFAULTS,
  scanJson,
  scannerSpec,
  scanText,
  type ScanMark,
  type ScanSettings,
} from '../core/scan';
import type { Transcript } from '../core/transcript/model';
import { runPythonScanner } from '../services/python/scanHarness';
import { EXIT_CLEAN, EXIT_FINDINGS, EXIT_USAGE, parseOptions, UsageError, type CliCommand } from './command';
import { harnessScript } from './reward';
import { readSource, requireRollouts, SOURCE_OPTIONS, SOURCE_USAGE } from './rolloutSource';

const usage = [
  'Usage: mtrl scan <file|dir|-> [--threshold KIND=SHARE]... [--repeated-calls N] [--scanner FILE.py[:function]] [--json]',
  '       mtrl scan --job <name> [--evaluation] [--from log|traces] [--region R] [--endpoint URL] [--profile P] [...]',
  '',
  'Reads rollouts as mtrl rollouts does (a log, MLflow traces, saved transcripts, a folder, a job) and finds the ways',
  'they went wrong, for any agent: each kind with its rollouts, their share, the step it began, and whether the',
  'rollouts it marks score below their GRPO groups (docs/scan.md has each rule).',
  '',
  `Kinds: ${GENERIC_KINDS.join(', ')}; environment packs add ${allPackScanners()
    .map((s) => s.kind)
    .join(', ')}.`,
  '',
  SOURCE_USAGE,
  '  --threshold KIND=SHARE   fail when KIND marks more than SHARE of the rollouts (0.1 or 10%); repeatable.',
  '                 Defaults: any rollout for auth-error and error-status, 5 % for the others',
  '  --repeated-calls N       the same call with the same arguments N times in a row is repeated-call (default 3)',
  '  --scanner FILE.py[:fn]   also run your Python function fn(transcript) -> [{kind, turn}] (default fn: scan),',
  '                           contained as the reward harness runs your code; --python PATH, --timeout SECONDS per 2,000',
  '  --json         {"scanned", "findings": [{kind, rollouts, share, steps, began, trend, meanAdvantage, ids, example}]}',
  '',
  'Exit code 0 nothing past its threshold, 1 a finding past its threshold, 2 the rollouts or the scanner could not be read.',
].join('\n');

function settingsFrom(values: { threshold?: string[]; 'repeated-calls'?: string }): ScanSettings {
  const thresholds = { ...SCAN_DEFAULTS.thresholds };
  for (const text of values.threshold ?? []) {
    const parsed = parseThreshold(text);
    if (typeof parsed === 'string') throw new UsageError(parsed);
    thresholds[parsed.kind] = parsed.value;
  }
  const repeats = values['repeated-calls'] === undefined ? SCAN_DEFAULTS.repeatedCalls : Number(values['repeated-calls']);
  if (!Number.isInteger(repeats) || repeats < 2)
    throw new UsageError(`--repeated-calls takes a whole number from 2, not "${values['repeated-calls']}"`);
  return { ...SCAN_DEFAULTS, thresholds, repeatedCalls: repeats };
}

/** What the scan keeps of a rollout it has scanned: what the reader's checks and the dataset note read, no turns. */
const scanned = (t: Transcript): Transcript => ({
  id: t.id,
  task: t.task.rowIndex === undefined ? { prompt: '' } : { prompt: '', rowIndex: t.task.rowIndex },
  groupKey: '',
  reward: t.reward,
  status: t.status,
  turns: [],
  source: t.source,
});

export const scanCommand: CliCommand = {
  name: 'scan',
  usage,
  async run(args, io) {
    const { values, positionals } = parseOptions(args, usage, {
      options: {
        json: { type: 'boolean' },
        threshold: { type: 'string', multiple: true },
        'repeated-calls': { type: 'string' },
        scanner: { type: 'string' },
        python: { type: 'string', default: 'python3' },
        timeout: { type: 'string', default: String(DEFAULT_TIMEOUT_SECONDS * 6) },
        ...SOURCE_OPTIONS,
      },
      allowPositionals: true,
    });
    const [file, ...extra] = positionals;
    if (values.job ? file !== undefined : !file || extra.length)
      throw new UsageError('give one log file, traces file, saved transcripts or folder (or - for standard input), or --job <name>');
    const settings = settingsFrom(values);
    const scan = new RolloutScan(settings);
    const spec = values.scanner === undefined ? undefined : scannerSpec(values.scanner);
    if (spec && !(existsSync(spec.file) && statSync(spec.file).isFile())) throw new UsageError(`--scanner: ${spec.file} is not a file`);
    const timeout = Number(values.timeout);
    if (!(timeout > 0 && timeout <= MAX_TIMEOUT_SECONDS))
      throw new UsageError(`--timeout takes seconds from 1 to ${MAX_TIMEOUT_SECONDS}, not "${values.timeout}"`);
    // Each rollout is scanned as it is read and let go, unless the user's scanner needs it whole afterwards.
    const keep = (t: Transcript) => {
      scan.add(t);
      return scanned(t);
    };
    const read = requireRollouts(spec ? await readSource('scan', values, file, io) : await readSource('scan', values, file, io, keep));
    let failed = false;
    if (spec) {
      const { marks, failures } = await runPythonScanner(
        {
          python: values.python,
          script: harnessScript('transcript_scan.py'),
          file: path.resolve(spec.file),
          function: spec.function,
          timeoutMs: timeout * 1000,
          signal: io.signal,
          onStderr: (text) => io.err(text.trimEnd()),
        },
        read.rollouts,
      ).catch((error: unknown) => {
        throw new UsageError(`--scanner ${values.scanner}: ${(error as Error).message}`);
      });
      read.rollouts.forEach((t, i) => scan.add(t, (marks.get(i) ?? []) as ScanMark[]));
      if (failures.length) {
        failed = true;
        const first = failures[0];
        io.err(
          `mtrl scan: the scanner failed on ${failures.length} rollout${failures.length === 1 ? '' : 's'}; the first, ${read.rollouts[first.index].id}: ${first.message}${first.line ? ` (${spec.file}:${first.line})` : ''}`,
        );
      }
    }
    const result = scan.result();
    if (read.partial) io.err(`mtrl scan: partial: ${result.scanned} rollouts read, then ${read.partial}`);
    io.out(
      values.json
        ? JSON.stringify({ ...scanJson(result), ...(read.partial ? { partial: read.partial } : {}) })
        : scanText(result, read.source),
    );
    if (failed || read.partial) return EXIT_USAGE;
    return result.findings.some((f) => f.above) ? EXIT_FINDINGS : EXIT_CLEAN;
  },
};
