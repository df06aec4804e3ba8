import { signed } from './invariants';
import type { RewardPreview, RewardPreviewFailure } from './preview';

/** The games the one-line summary shows, in order. */
const LENS_GAMES = ['solve@1', 'solve@3', 'solve@6', 'loss', 'no-play'];

/** A score without a plus sign, as the CodeLens shows it. */
function plain(value: number): string {
  return signed(value).replace(/^\+/, '');
}

/** "solve@1 1.55 · solve@3 1.35 · solve@6 1.05 · loss −0.50 · no-play −1.50 · ✓ 4/4". */
export function summaryLine(preview: RewardPreview): string {
  const parts = LENS_GAMES.flatMap((name) => {
    const game = preview.games.find((g) => g.name === name);
    return game ? [`${name} ${plain(game.reward)}`] : [];
  });
  const held = preview.invariants.filter((i) => i.ok).length;
  parts.push(`${held === preview.invariants.length ? '\u2713' : '\u2717'} ${held}/${preview.invariants.length}`);
  return parts.join(' \u00b7 ');
}

/** The `mtrl reward --json` document, exactly: games with guesses and reward, invariants with ok and detail. */
export function previewJson(preview: RewardPreview): {
  games: { name: string; guesses: string[]; reward: number }[];
  invariants: { name: string; ok: boolean; detail: string }[];
} {
  return {
    games: preview.games.map(({ name, guesses, reward }) => ({ name, guesses, reward })),
    invariants: preview.invariants.map(({ name, ok, detail }) => ({ name, ok, detail })),
  };
}

/** A table of every game and the invariants, for the terminal. */
export function previewText(preview: RewardPreview, file: string): string {
  const what = preview.convention === 'class' ? `${preview.target}.final_reward` : `${preview.target}(answer, guesses)`;
  const width = Math.max(...preview.games.map((g) => g.name.length));
  const lines = [`${file}:${preview.line} ${what}, answer '${preview.answer}'`, ''];
  for (const game of preview.games)
    lines.push(`  ${game.name.padEnd(width)}  ${signed(game.reward).padStart(6)}  ${game.guesses.join(' ')}`);
  lines.push('');
  for (const inv of preview.invariants) lines.push(`  ${inv.ok ? '\u2713' : '\u2717'} ${inv.name}: ${inv.detail}`);
  if (preview.stubbed.length) lines.push('', `Not installed, replaced by stubs: ${preview.stubbed.join(', ')}`);
  for (const note of preview.notes) lines.push(`Note: ${note}`);
  lines.push('', summaryLine(preview));
  return lines.join('\n');
}

/** "main.py:3:5: SyntaxError: …" — where the reward code broke, in one line. */
export function failureText(failure: RewardPreviewFailure, file: string): string {
  const where = failure.line ? `${file}:${failure.line}${failure.column ? `:${failure.column}` : ''}: ` : `${file}: `;
  return `${where}${failure.message}`;
}
