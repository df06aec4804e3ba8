import { isValidWord } from '../wordle';
import { canonicalGames, DEFAULT_ANSWER } from './games';
import { runHarness, type HarnessRunFailure } from './harness';
import { checkInvariants, type InvariantResult, type ScoredGame } from './invariants';
import type { HarnessError } from './protocol';

export interface PreviewOptions {
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

/** The user's reward scored on every canonical game, with the invariants checked. */
export interface RewardPreview {
  ok: true;
  answer: string;
  convention: 'class' | 'function';
  target: string;
  /** 1-based line of `final_reward` or of the entry function. */
  line: number;
  stubbed: string[];
  games: ScoredGame[];
  invariants: InvariantResult[];
  /** Games that could not be exactly what their name says for this answer. */
  notes: string[];
}

/** Why the reward could not be scored; `line`/`column` point into the user's file when known. */
export type RewardPreviewFailure = Omit<HarnessError, 'error'> & { error: HarnessError['error'] | HarnessRunFailure['error'] | 'invalid-answer' };

export interface PreviewOutcome {
  result: RewardPreview | RewardPreviewFailure;
  stderr: string;
  pid?: number;
}

/** Plays the canonical games through the user's reward code and checks the invariants. */
export async function previewReward(options: PreviewOptions): Promise<PreviewOutcome> {
  const requested = options.answer ?? DEFAULT_ANSWER;
  if (!isValidWord(requested)) {
    return { result: { ok: false, error: 'invalid-answer', message: `The answer '${requested}' is not 5 letters a-z; set mtrl.reward.answer to a word like 'crane'.` }, stderr: '' };
  }
  const { answer, games, notes } = canonicalGames(requested);
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
  if (missing) return { result: { ok: false, error: 'crashed', message: `The harness returned no reward for ${missing.name}.` }, stderr, pid };
  const scored: ScoredGame[] = games.map((g) => ({ ...g, reward: response.rewards[g.name] }));
  const { convention, target, line, stubbed } = response;
  return { result: { ok: true, answer, convention, target, line, stubbed, games: scored, invariants: checkInvariants(scored), notes }, stderr, pid };
}
