import { existsSync, readFileSync, statSync, writeFileSync } from 'node:fs';
import path from 'node:path';
import { reportKeeper } from '../core/report/bound';
import { buildReport } from '../core/report/model';
import type { Transcript } from '../core/transcript/model';
import { RolloutScan } from '../core/scan';
import { reportPage } from '../webview-kit/page';
import { EXIT_CLEAN, parseOptions, UsageError, type CliCommand } from './command';
import { jobCurves } from './reportJob';
import { keptSignal } from './reportSignal';
import { readSource, requireRollouts, SOURCE_OPTIONS, SOURCE_USAGE } from './rolloutSource';

const usage = [
  'Usage: mtrl report <file|dir|-> --html FILE [--job NAME] [--scan] [--signal STORE] [--data DATASET]',
  '       mtrl report --job <name> --html FILE [--evaluation] [--from log|traces] [--scan] [--region R] [--endpoint URL] [--profile P]',
  '',
  'Writes one HTML file to share a run: it opens from disk in any browser, offline, and asks the network for nothing.',
  'It holds the header (the job, the source, when it was made, the counts as the board says them), the board (groups',
  "by task prompt, each rollout's turns with thinking, tool calls and results, reward and metrics; the action table),",
  "with --job the job's curves (the metrics view's charts) and health findings; with --scan the scan's findings; with",
  '--signal a learning-signal check.',
  'Rollouts are read as mtrl rollouts reads them; a large source keeps the first rollouts of each group, and says so.',
  '',
  '  --html FILE    the file to write (replaced when it exists)',
  '  --job NAME     with a file: the job whose curves and health findings to add; alone: the job whose rollouts to read too',
  "  --scan         add the rollout scan's findings (mtrl scan's defaults)",
  SOURCE_USAGE,
  '',
  'Exit code 0 when the file is written, whatever it shows; 2 when it cannot be (no rollouts, an unreadable source or path).',
].join('\n');

/** The report page's bundle: beside the CLI in dist/, or in the repository's dist/ when run from source. */
function reportScript(): string {
  const candidates = [path.join(__dirname, 'webview/report.js'), path.join(__dirname, '../../dist/webview/report.js')];
  const found = candidates.find((p) => existsSync(p));
  if (!found)
    throw new UsageError(`report.js is missing next to the CLI (looked in ${candidates.join(', ')}); rebuild with npm run build.`);
  return readFileSync(found, 'utf8');
}

export const reportCommand: CliCommand = {
  name: 'report',
  usage,
  async run(args, io) {
    const { values, positionals } = parseOptions(args, usage, {
      options: { html: { type: 'string' }, scan: { type: 'boolean' }, signal: { type: 'string' }, ...SOURCE_OPTIONS },
      allowPositionals: true,
    });
    const [file, ...extra] = positionals;
    if ((!file && !values.job) || extra.length)
      throw new UsageError('give one log file, traces file, saved transcripts or folder (or - for standard input), or --job <name>');
    if (!values.html) throw new UsageError('give --html FILE: where to write the report');
    const out = path.resolve(values.html);
    if (existsSync(out) && statSync(out).isDirectory()) throw new UsageError(`--html ${values.html} is a folder: give a file name`);
    const script = reportScript();
    // A wrong store is said before a long read of the rollouts.
    const signal = values.signal === undefined ? undefined : await keptSignal(values.signal, io);
    // With a file, --job names the curves only: the rollouts are the file's.
    const sourceValues = file ? { ...values, job: undefined } : values;
    // Each rollout is scanned whole as it is read; past the most the report carries of its group, only its summary stays.
    const scan = values.scan ? new RolloutScan() : undefined;
    const bound = reportKeeper();
    const keep = (t: Transcript) => {
      scan?.add(t);
      return bound(t);
    };
    const read = requireRollouts(await readSource('report', sourceValues, file, io, keep));
    const job = values.job ? await jobCurves(values.job, values, io) : undefined;
    if (job && 'problem' in job) io.err(`mtrl report: no curves: ${job.problem}`);
    const model = buildReport({
      rollouts: read.rollouts,
      source: read.source,
      madeAt: new Date(),
      job: values.job,
      partial: read.partial,
      scan: scan?.result(),
      signal,
      ...(job && 'curves' in job ? { curves: [job.curves], health: job.health } : {}),
    });
    if (job && 'problem' in job) model.notes.push(`No curves: ${job.problem}`);
    const html = reportPage(model, script);
    try {
      writeFileSync(out, html);
    } catch (error) {
      throw new UsageError(`cannot write ${values.html}: ${(error as Error).message}`);
    }
    const kb = Math.round(Buffer.byteLength(html) / 1024).toLocaleString('en');
    io.out(`wrote ${values.html} (${kb} KB): ${model.counts} from ${read.source}${model.notes.length ? `; ${model.notes.join(' ')}` : ''}`);
    return EXIT_CLEAN;
  },
};
