import { previewReward } from '../services/rewardPreview';
import { existsSync, statSync } from 'node:fs';
import path from 'node:path';
import { DEFAULT_ANSWER, DEFAULT_TIMEOUT_SECONDS, MAX_TIMEOUT_SECONDS, failureText, previewJson, previewText } from '../core/reward';
import { runRescore, runScenarioPreview } from './rewardScenarios';
import { EXIT_CLEAN, EXIT_FINDINGS, EXIT_USAGE, parseOptions, UsageError, type CliCommand } from './command';

const usage = `Usage: mtrl reward <file.py> [--entry function] [--answer WORD] [--python PATH] [--timeout SECONDS] [--json]
       mtrl reward <file.mtrl-reward.json> [--rescore TRANSCRIPTS.jsonl] [--python PATH] [--timeout SECONDS] [--json]

Scores canonical Wordle games with your reward code and checks that faster solves win,
solves beat losses, losses are negative and never playing is worst.

The reward is a class WordleGame(answer) with guess(word), optional guess_from_text(word)
and final_reward(), or, with --entry, a function called as function(answer, guesses).
Third-party imports that are not installed are replaced by stubs.

For any other environment, a *.mtrl-reward.json file names the reward (a function
reward(task, transcript), or an environment class replayed call by call), named
scenarios and the expectations between them; mtrl reward scores the scenarios and
checks the expectations. With --rescore it runs that reward over recorded transcripts
(mtrl rollouts … --transcripts) and compares it with the rewards they were given:
rank correlation, zero-advantage groups before and after, and the biggest flips.

Options:
  --entry NAME      score function NAME(answer, guesses) instead of the class
  --answer WORD     the secret word of the games (default ${DEFAULT_ANSWER})
  --python PATH     the interpreter (default python3)
  --timeout SEC     stop the code after SEC seconds (default ${DEFAULT_TIMEOUT_SECONDS})
  --rescore FILE    what-if: re-score the transcripts in FILE (JSON Lines) with the scenario file's reward
  --json            {"games":[{"name","guesses","reward"}],"invariants":[{"name","ok","detail"}]}, or for a
                    scenario file {"reward","scenarios","failures","expectations"}, or the what-if report

Exit code: 0 every invariant holds, 1 an invariant fails, 2 the code cannot run.`;

/** The harness beside the bundle (dist/python) or, when run from sources, in src/python. */
function harnessScript(name = 'reward_harness.py'): string {
  const candidates = [path.join(__dirname, 'python', name), path.join(__dirname, '../python', name)];
  const found = candidates.find((p) => existsSync(p));
  if (!found) throw new UsageError(`${name} is missing next to the CLI (looked in ${candidates.join(', ')}); rebuild with npm run build.`);
  return found;
}

export const rewardCommand: CliCommand = {
  name: 'reward',
  usage,
  async run(args, io) {
    const { values, positionals } = parseOptions(args, usage, {
      allowPositionals: true,
      options: {
        entry: { type: 'string' },
        answer: { type: 'string', default: DEFAULT_ANSWER },
        python: { type: 'string', default: 'python3' },
        timeout: { type: 'string', default: String(DEFAULT_TIMEOUT_SECONDS) },
        json: { type: 'boolean', default: false },
        rescore: { type: 'string' },
      },
    });
    if (positionals.length !== 1) throw new UsageError('give exactly one Python file, e.g. mtrl reward main.py');
    const file = path.resolve(positionals[0]);
    if (!existsSync(file)) throw new UsageError(`${positionals[0]} does not exist`);
    // A FIFO or a device would block the import until the timeout, which then reads like an endless loop.
    if (!statSync(file).isFile()) throw new UsageError(`${positionals[0]} is not a regular file; give the Python file of the reward`);
    const scenarioFile = file.endsWith('.mtrl-reward.json');
    if (values.rescore && !scenarioFile) throw new UsageError('--rescore takes the reward from a *.mtrl-reward.json file: give that file');
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
        return values.rescore
          ? await runRescore(positionals[0], values.rescore, values.json, flags, io)
          : await runScenarioPreview(positionals[0], values.json, flags, io);
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
