import { readdirSync, readFileSync, existsSync, statSync } from 'node:fs';
import path from 'node:path';
import { DEFAULT_TIMEOUT_SECONDS, MAX_TIMEOUT_SECONDS } from '../core/reward';
import { packScenarioFile } from '../services/rewardScenarios';
import { runRescore, runScenarioPreview } from './rewardScenarios';
import { PYTHON_OVER_ROLLOUTS_OPTIONS, readSource, requireRollouts } from './rolloutSource';
import { parseOptions, UsageError, type CliCommand } from './command';

/** The one `*.mtrl-reward.json` beside a Python file whose `reward.file` is that file, if there is exactly one. */
function scenarioFileNaming(pyFile: string): string | undefined {
  const dir = path.dirname(pyFile);
  const naming = readdirSync(dir)
    .filter((name) => name.endsWith('.mtrl-reward.json'))
    .map((name) => path.join(dir, name))
    .filter((candidate) => {
      try {
        const named = (JSON.parse(readFileSync(candidate, 'utf8')) as { reward?: { file?: unknown } }).reward?.file;
        return typeof named === 'string' && path.resolve(dir, named) === path.resolve(pyFile);
      } catch {
        return false;
      }
    });
  return naming.length === 1 ? naming[0] : undefined;
}

const usage = `Usage: mtrl reward <file.mtrl-reward.json | file.py> [--rescore FILE|DIR | --job NAME [--evaluation]] [--steps A-B] [--python PATH] [--timeout SECONDS] [--json]

A *.mtrl-reward.json file names the reward (a function reward(task, transcript), or an
environment class replayed call by call), named scenarios (transcripts of tool calls) and
the expectations between them; mtrl reward scores each scenario and checks each expectation.
A Python file whose reward an environment pack recognizes (Wordle: a class with guess() and
final_reward()) is scored on the scenarios the pack offers for it, as if that file were
saved beside it. Third-party imports that are not installed are replaced by stubs. With
--rescore (a log, traces file or folder, or the output of mtrl rollouts … --transcripts) or
--job (a job's rollouts) it runs the scenario file's reward over the recorded transcripts
and compares it with the rewards they were given: rank correlation, zero-advantage groups
before and after, and the biggest flips.

Options:
  --python PATH     the interpreter (default python3)
  --timeout SEC     stop the code after SEC seconds (default ${DEFAULT_TIMEOUT_SECONDS})
  --rescore SOURCE  what-if: re-score the rollouts in SOURCE with the scenario file's reward
  --job NAME        what-if over a job's rollouts (--evaluation: an evaluation job; --region, --endpoint,
                    --profile, --data, --from as for mtrl rollouts)
  --steps A-B       only the rollouts of training steps A to B
  --json            {"reward","scenarios","failures","expectations"} (for a Python file also "games" and
                    "invariants", their earlier names), or the what-if report

Exit code: 0 every expectation holds, 1 an expectation or a scenario fails, 2 the code cannot run.`;

/** A Python script of ours beside the bundle (dist/python) or, when run from sources, in src/python. */
export function harnessScript(name = 'transcript_reward.py'): string {
  const candidates = [path.join(__dirname, 'python', name), path.join(__dirname, '../python', name)];
  const found = candidates.find((p) => existsSync(p));
  if (!found) throw new UsageError(`${name} is missing next to the CLI (looked in ${candidates.join(', ')}); rebuild with npm run build.`);
  return found;
}

const OPTIONS = {
  timeout: { type: 'string', default: String(DEFAULT_TIMEOUT_SECONDS) },
  rescore: { type: 'string' },
  ...PYTHON_OVER_ROLLOUTS_OPTIONS,
} as const;

export const rewardCommand: CliCommand = {
  name: 'reward',
  usage,
  async run(args, io) {
    const { values, positionals } = parseOptions(args, usage, { allowPositionals: true, options: OPTIONS });
    if (positionals.length !== 1)
      throw new UsageError('give exactly one scenario or Python file, e.g. mtrl reward reward.mtrl-reward.json');
    let file = path.resolve(positionals[0]);
    if (!existsSync(file)) throw new UsageError(`${positionals[0]} does not exist`);
    // A FIFO or a device would block the import until the timeout, which then reads like an endless loop.
    if (!statSync(file).isFile())
      throw new UsageError(`${positionals[0]} is not a regular file; give the scenario file or the Python file of the reward`);
    // A Python reward no pack knows, named by a scenario file beside it, is scored on that file's scenarios.
    const beside = file.endsWith('.py') && !packScenarioFile(file, readFileSync(file, 'utf8')) ? scenarioFileNaming(file) : undefined;
    if (beside) {
      io.err(`mtrl reward: scoring ${positionals[0]} on the scenarios of ${beside}, which names it`);
      positionals[0] = beside;
      file = beside;
    }
    const scenarioFile = file.endsWith('.mtrl-reward.json');
    const rescoring = values.rescore !== undefined || values.job !== undefined;
    if (rescoring && !scenarioFile) throw new UsageError('--rescore takes the reward from a *.mtrl-reward.json file: give that file');
    if (values.rescore !== undefined && values.job !== undefined)
      throw new UsageError('re-score either --rescore SOURCE or --job NAME, not both');
    const steps = values.steps === undefined ? undefined : /^(\d+)(?:-(\d+))?$/.exec(values.steps);
    if (values.steps !== undefined && !steps) throw new UsageError(`--steps takes a step or a range such as 3-7, not "${values.steps}"`);
    const seconds = Number(values.timeout);
    if (!(seconds > 0 && seconds <= MAX_TIMEOUT_SECONDS))
      throw new UsageError(`--timeout takes seconds between 0 and ${MAX_TIMEOUT_SECONDS}, got '${values.timeout}'`);
    const implicit = scenarioFile ? undefined : packScenarioFile(file, readFileSync(file, 'utf8'));
    if (!scenarioFile && !implicit)
      throw new UsageError(
        `no environment pack recognizes a reward in ${positionals[0]}: name it in a *.mtrl-reward.json file with the scenarios to score it on`,
      );
    // Ctrl-C stops the harness and everything it started (it runs in its own process group, out of the terminal's reach).
    const cancel = new AbortController();
    const onSignal = () => cancel.abort();
    process.once('SIGINT', onSignal).once('SIGTERM', onSignal);
    try {
      const flags = { python: values.python, script: harnessScript(), timeoutMs: seconds * 1000, signal: cancel.signal };
      if (implicit) return await runScenarioPreview(positionals[0], values.json, flags, io, implicit);
      if (!rescoring) return await runScenarioPreview(positionals[0], values.json, flags, io);
      const read = requireRollouts(await readSource('reward', values, values.rescore, io));
      if (read.partial) io.err(`mtrl reward: partial: ${read.rollouts.length} rollouts read, then ${read.partial}`);
      const [from, to] = steps ? [Number(steps[1]), Number(steps[2] ?? steps[1])] : [];
      const picked = steps ? read.rollouts.filter((r) => r.step !== undefined && r.step >= from! && r.step <= to!) : read.rollouts;
      const source = steps ? `${read.source}, steps ${from}–${to}` : read.source;
      return await runRescore(positionals[0], picked, source, values.json, flags, io);
    } finally {
      process.off('SIGINT', onSignal).off('SIGTERM', onSignal);
    }
  },
};
