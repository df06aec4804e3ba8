import { createReadStream } from 'node:fs';
import { parseArgs } from 'node:util';
import { collectRollouts, groupRollouts, summarize, type RolloutSummary } from '../core/rollouts';
import { EXIT_CLEAN, EXIT_FINDINGS, UsageError, type CliCommand } from './command';

const round = (x: number) => Math.round(x * 1e4) / 1e4;

/** The `--json` shape, fixed by the issue: scripts compare runs with it. */
export function rolloutsJson(s: RolloutSummary): object {
  return {
    rollouts: s.rollouts,
    groups: s.groups,
    solved: s.solved,
    solve_rate: round(s.solveRate),
    reward: s.reward ? { mean: round(s.reward.mean), min: round(s.reward.min), max: round(s.reward.max) } : { mean: null, min: null, max: null },
    guesses_to_solve: Object.fromEntries([1, 2, 3, 4, 5, 6].map((n) => [String(n), s.guessesToSolve[n]])),
  };
}

function human(s: RolloutSummary, source: string): string {
  const pct = (x: number) => `${(x * 100).toFixed(1)}%`;
  return [
    `${s.rollouts} rollouts in ${s.groups} groups from ${source}`,
    `solved ${s.solved} (${pct(s.solveRate)}), lost ${s.lost}, no play ${s.noPlay}`,
    s.reward ? `reward mean ${round(s.reward.mean)}, min ${round(s.reward.min)}, max ${round(s.reward.max)}` : 'reward: none logged',
    `mean valid guesses ${round(s.meanGuesses)}`,
    `guesses to solve: ${[1, 2, 3, 4, 5, 6].map((n) => `${n}: ${s.guessesToSolve[n]}`).join('  ')}`,
  ].join('\n');
}

export const rolloutsCommand: CliCommand = {
  name: 'rollouts',
  usage: [
    'Usage: mtrl rollouts <file|-> [--json]',
    '',
    'Reads rollout records (and, without them, SDK reward lines and tool feedback text) from a log file,',
    'a CloudWatch export or `aws logs tail` output, and prints solve rate, rewards and guesses to solve.',
    'Exit code 1 when the input holds no rollout at all.',
  ].join('\n'),
  async run(args, io) {
    let parsed;
    try {
      parsed = parseArgs({ args, options: { json: { type: 'boolean' } }, allowPositionals: true });
    } catch (error) {
      throw new UsageError((error as Error).message);
    }
    const [file, ...extra] = parsed.positionals;
    if (!file || extra.length) throw new UsageError('give one log file, or - for standard input');
    const chunks = file === '-' ? [await io.stdin()] : createReadStream(file);
    let rollouts;
    try {
      rollouts = await collectRollouts(chunks);
    } catch (error) {
      const code = (error as NodeJS.ErrnoException).code;
      throw new UsageError(code === 'ENOENT' ? `cannot read ${file}: no such file` : `cannot read ${file}: ${(error as Error).message}`);
    }
    const summary = summarize(rollouts, groupRollouts(rollouts).groups.length);
    if (parsed.values.json) io.out(JSON.stringify(rolloutsJson(summary)));
    else io.out(rollouts.length ? human(summary, file === '-' ? 'standard input' : file) : `no rollouts in ${file === '-' ? 'standard input' : file}: the agent logs no rollout record (see "MTRL: Insert Rollout Logging") and no UpdateReward or feedback lines were found`);
    return rollouts.length ? EXIT_CLEAN : EXIT_FINDINGS;
  },
};
