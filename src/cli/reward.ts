import { previewReward } from '../services/rewardPreview';
import { rewardPreviewGames } from '../core/environments/registry';
import { existsSync, statSync } from 'node:fs';
import path from 'node:path';
import { DEFAULT_TIMEOUT_SECONDS, MAX_TIMEOUT_SECONDS, failureText, previewJson, previewText } from '../core/reward';
import { runRescore, runScenarioPreview } from './rewardScenarios';
import { PYTHON_OVER_ROLLOUTS_OPTIONS, readSource, requireRollouts } from './rolloutSource';
import { EXIT_CLEAN, EXIT_FINDINGS, EXIT_USAGE, parseOptions, UsageError, type CliCommand } from './command';

const DEFAULT_ANSWER = rewardPreviewGames()?.defaultAnswer ?? '';

const usage = `Usage: mtrl reward <file.py> [--entry function] [--answer WORD] [--python PATH] [--timeout SECONDS] [--json]
       mtrl reward <file.mtrl-reward.json> [--rescore FILE|DIR | --job NAME [--evaluation]] [--steps A-B] [--python PATH] [--timeout SECONDS] [--json]

Scores canonical Wordle games with your reward code and checks that faster solves win,
solves beat losses, losses are negative and never playing is worst.

The reward is a class WordleGame(answer) with guess(word), optional guess_from_text(word)
and final_reward(), or, with --entry, a function called as function(answer, guesses).
Third-party imports that are not installed are replaced by stubs.

For any other environment, a *.mtrl-reward.json file names the reward (a function
reward(task, transcript), or an environment class replayed call by call), named
scenarios and the expectations between them; mtrl reward scores the scenarios and
checks the expectations. With --rescore (a log, traces file or folder, or the output of
mtrl rollouts … --transcripts) or --job (a job's rollouts) it runs that reward over the
recorded transcripts and compares it with the rewards they were given: rank correlation,
zero-advantage groups before and after, and the biggest flips.

Options:
  --entry NAME      score function NAME(answer, guesses) instead of the class
  --answer WORD     the secret word of the games (default ${DEFAULT_ANSWER})
  --python PATH     the interpreter (default python3)
  --timeout SEC     stop the code after SEC seconds (default ${DEFAULT_TIMEOUT_SECONDS})
  --rescore SOURCE  what-if: re-score the rollouts in SOURCE with the scenario file's reward
  --job NAME        what-if over a job's rollouts (--evaluation: an evaluation job; --region, --endpoint,
                    --profile, --data, --from as for mtrl rollouts)
  --steps A-B       only the rollouts of training steps A to B
  --json            {"games":[{"name","guesses","reward"}],"invariants":[{"name","ok","detail"}]}, or for a
                    scenario file {"reward","scenarios","failures","expectations"}, or the what-if report

Exit code: 0 every invariant holds, 1 an invariant fails, 2 the code cannot run.`;

/** A Python script of ours beside the bundle (dist/python) or, when run from sources, in src/python. */
export function harnessScript(name = 'reward_harness.py'): string {
  const candidates = [path.join(__dirname, 'python', name), path.join(__dirname, '../python', name)];
  const found = candidates.find((p) => existsSync(p));
  if (!found) throw new UsageError(`${name} is missing next to the CLI (looked in ${candidates.join(', ')}); rebuild with npm run build.`);
  return found;
}

const OPTIONS = {
  entry: { type: 'string' },
  answer: { type: 'string', default: DEFAULT_ANSWER },
  timeout: { type: 'string', default: String(DEFAULT_TIMEOUT_SECONDS) },
  rescore: { type: 'string' },
  ...PYTHON_OVER_ROLLOUTS_OPTIONS,
} as const;

export const rewardCommand: CliCommand = {
  name: 'reward',
  usage,
  async run(args, io) {
    const { values, positionals } = parseOptions(args, usage, { allowPositionals: true, options: OPTIONS });
    if (positionals.length !== 1) throw new UsageError('give exactly one Python file, e.g. mtrl reward main.py');
    const file = path.resolve(positionals[0]);
    if (!existsSync(file)) throw new UsageError(`${positionals[0]} does not exist`);
    // A FIFO or a device would block the import until the timeout, which then reads like an endless loop.
    if (!statSync(file).isFile()) throw new UsageError(`${positionals[0]} is not a regular file; give the Python file of the reward`);
    const scenarioFile = file.endsWith('.mtrl-reward.json');
    const rescoring = values.rescore !== undefined || values.job !== undefined;
    if (rescoring && !scenarioFile) throw new UsageError('--rescore takes the reward from a *.mtrl-reward.json file: give that file');
    if (values.rescore !== undefined && values.job !== undefined)
      throw new UsageError('re-score either --rescore SOURCE or --job NAME, not both');
    const steps = values.steps === undefined ? undefined : /^(\d+)(?:-(\d+))?$/.exec(values.steps);
    if (values.steps !== undefined && !steps) throw new UsageError(`--steps takes a step or a range such as 3-7, not "${values.steps}"`);
    if (!scenarioFile && !/^[a-z]{5}$/i.test(values.answer)) throw new UsageError(`--answer must be 5 letters a-z, got '${values.answer}'`);
    const seconds = Number(values.timeout);
    if (!(seconds > 0 && seconds <= MAX_TIMEOUT_SECONDS))
      throw new UsageError(`--timeout takes seconds between 0 and ${MAX_TIMEOUT_SECONDS}, got '${values.timeout}'`);
    const entry = values.entry?.includes(':') ? values.entry.slice(values.entry.lastIndexOf(':') + 1) : values.entry;
    // Ctrl-C stops the harness and everything it started (it runs in its own process group, out of the terminal's reach).
    const cancel = new AbortController();
    const onSignal = () => cancel.abort();
    process.once('SIGINT', onSignal).once('SIGTERM', onSignal);
    let outcome;
    try {
      if (scenarioFile) {
        const flags = {
          python: values.python,
          script: harnessScript('transcript_reward.py'),
          timeoutMs: seconds * 1000,
          signal: cancel.signal,
        };
        if (!rescoring) return await runScenarioPreview(positionals[0], values.json, flags, io);
        const read = requireRollouts(await readSource('reward', values, values.rescore, io));
        if (read.partial) io.err(`mtrl reward: partial: ${read.rollouts.length} rollouts read, then ${read.partial}`);
        const [from, to] = steps ? [Number(steps[1]), Number(steps[2] ?? steps[1])] : [];
        const picked = steps ? read.rollouts.filter((r) => r.step !== undefined && r.step >= from! && r.step <= to!) : read.rollouts;
        const source = steps ? `${read.source}, steps ${from}–${to}` : read.source;
        return await runRescore(positionals[0], picked, source, values.json, flags, io);
      }
      outcome = await previewReward({
        python: values.python,
        script: harnessScript(),
        file,
        entry,
        answer: values.answer,
        timeoutMs: seconds * 1000,
        signal: cancel.signal,
      });
    } finally {
      process.off('SIGINT', onSignal).off('SIGTERM', onSignal);
    }
    const { result, stderr } = outcome;
    if (!result.ok) {
      if (stderr.trim()) io.err(stderr.trimEnd());
      io.err(`mtrl reward: ${failureText(result, positionals[0])}`);
      return EXIT_USAGE;
    }
    if (values.json) {
      io.out(JSON.stringify(previewJson(result)));
      // The JSON shape is fixed; a game that could not be what its name says is still worth a line.
      for (const note of result.notes) io.err(`mtrl reward: note: ${note}`);
    } else io.out(previewText(result, positionals[0]));
    return result.invariants.every((i) => i.ok) ? EXIT_CLEAN : EXIT_FINDINGS;
  },
};
