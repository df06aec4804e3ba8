import { rewardPreviewGames } from '../core/environments/registry';
import { checkInvariants, type PreviewOutcome, type ScoredGame } from '../core/reward';
import { runHarness } from './python/rewardHarness';

interface PreviewOptions {
  python: string;
  /** Absolute path of `reward_harness.py`. */
  script: string;
  /** Absolute path of the user's Python file. */
  file: string;
  entry?: string;
  answer?: string;
  timeoutMs?: number;
  signal?: AbortSignal;
  onStderr?: (text: string) => void;
}

/** Plays the environment pack's scripted games through the user's reward code and checks the invariants. */
export async function previewReward(options: PreviewOptions): Promise<PreviewOutcome> {
  const preview = rewardPreviewGames();
  if (!preview)
    return { result: { ok: false, error: 'not-found', message: 'No environment pack scripts games for the reward preview.' }, stderr: '' };
  const requested = options.answer?.trim() || preview.defaultAnswer;
  const problem = preview.answerProblem(requested);
  if (problem) return { result: { ok: false, error: 'invalid-answer', message: problem }, stderr: '' };
  const { answer, games, notes } = preview.games(requested);
  const entry = options.entry?.trim() || undefined;
  const { response, stderr, pid } = await runHarness({
    python: options.python,
    script: options.script,
    request: { file: options.file, entry, answer, games: games.map(({ name, guesses, via }) => ({ name, guesses, via })) },
    timeoutMs: options.timeoutMs,
    signal: options.signal,
    onStderr: options.onStderr,
  });
  if (!response.ok) return { result: response, stderr, pid };
  const missing = games.find((g) => response.rewards[g.name] === undefined);
  if (missing)
    return { result: { ok: false, error: 'crashed', message: `The harness returned no reward for ${missing.name}.` }, stderr, pid };
  const scored: ScoredGame[] = games.map((g) => ({ ...g, reward: response.rewards[g.name] }));
  const { convention, target, line, stubbed } = response;
  return {
    result: { ok: true, answer, convention, target, line, stubbed, games: scored, invariants: checkInvariants(scored), notes },
    stderr,
    pid,
  };
}
