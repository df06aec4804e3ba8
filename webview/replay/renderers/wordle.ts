import type { Transcript } from '../../../src/core/transcript/model';
import {
  knowledgeFrom,
  MARK_NAMES,
  MAX_GUESSES,
  renderFeedback,
  renderInvalid,
  renderKnowledge,
  renderRepeat,
  type Mark,
  type ScoredGuess,
  type WordleData,
  type WordleTurn,
} from '../../../src/core/environments/wordle';
import { h, icon } from '../dom';
import { thinkingSection } from './sections';
import type { TranscriptRenderer, TurnView } from './types';

function turnsOf(transcript: Transcript): WordleTurn[] {
  const data = transcript.env?.data as Partial<WordleData> | undefined;
  return Array.isArray(data?.turns) ? data.turns : [];
}

function grid(scored: ScoredGuess[]): HTMLElement {
  const rows: HTMLElement[] = [];
  for (let row = 0; row < MAX_GUESSES; row++) {
    const guess = scored[row];
    const tiles: HTMLElement[] = [];
    for (let i = 0; i < 5; i++) {
      const letter = guess?.guess[i]?.toUpperCase() ?? '';
      const mark = guess?.marks[i] as Mark | undefined;
      const label = letter ? `${letter} ${mark ? MARK_NAMES[mark] : 'unknown'}` : 'empty';
      tiles.push(
        h(
          'div',
          {
            class: `tile ${mark ? `mark-${mark}` : letter ? 'mark-unknown' : 'empty'}`,
            attrs: { role: 'img', 'aria-label': label, 'data-mark': mark ?? '' },
          },
          letter,
        ),
      );
    }
    const name = guess ? `Guess ${row + 1}: ${guess.guess.toUpperCase()}` : `Guess ${row + 1}: not played`;
    rows.push(h('div', { class: 'tile-row', attrs: { role: 'group', 'aria-label': name } }, ...tiles));
  }
  return h('div', { class: 'grid' }, ...rows);
}

function turnList(guesses: WordleTurn[], view: TurnView, thinking: (i: number) => string | undefined): HTMLElement {
  const { shown } = view;
  const items: HTMLElement[] = [];
  const scored: ScoredGuess[] = [];
  guesses.slice(0, shown).forEach((t, i) => {
    let feedback: string;
    if (t.repeated) feedback = renderRepeat(t.guess);
    else if (!t.valid) feedback = renderInvalid(t.guess, MAX_GUESSES - scored.length);
    else if (t.marks) {
      scored.push({ guess: t.guess, marks: t.marks });
      feedback = renderFeedback(scored.length, t.guess, t.marks, knowledgeFrom(scored));
    } else feedback = `${t.guess.toUpperCase()}: marks unknown (the log named no answer)`;
    const badges = [
      t.source === 'text'
        ? h(
            'span',
            { class: 'badge badge-text', attrs: { title: 'Recovered from raw text: the model did not call the tool' } },
            icon('comment'),
            ' raw text',
          )
        : null,
      !t.valid && !t.repeated ? h('span', { class: 'badge badge-invalid' }, icon('error'), ' invalid') : null,
      t.repeated ? h('span', { class: 'badge badge-repeated' }, icon('history'), ' repeated') : null,
      i === view.firstDifference ? h('span', { class: 'badge badge-differs' }, icon('diff'), ' first difference') : null,
    ];
    items.push(
      h(
        'li',
        { class: `turn${i === shown - 1 ? ' current' : ''}${i === view.firstDifference ? ' differs' : ''}`, attrs: { 'data-turn': i + 1 } },
        h(
          'div',
          { class: 'turn-head' },
          h('span', { class: 'turn-index' }, `${i + 1}.`),
          h('code', { class: 'guess' }, t.guess),
          ...badges,
        ),
        i === shown - 1 ? h('pre', { class: 'feedback' }, feedback) : null,
        i === shown - 1 && thinking(i) ? thinkingSection(thinking(i)!, i, view) : null,
      ),
    );
  });
  const last = guesses[shown - 1];
  // Valid feedback already carries the knowledge block; after invalid or repeated input, show what is known.
  const knowledge =
    scored.length && last && !(last.valid && last.marks)
      ? h('pre', { class: 'knowledge', attrs: { 'aria-label': 'What the model knows' } }, renderKnowledge(knowledgeFrom(scored)))
      : null;
  return h(
    'div',
    { class: 'turns' },
    items.length
      ? h('ol', { class: 'turn-list' }, ...items)
      : h('p', { class: 'muted' }, guesses.length ? 'Press play or → to replay the turns.' : 'This rollout made no guess.'),
    knowledge,
  );
}

/** Wordle's tiles and feedback, turn by turn: the Wordle pack's renderer. */
export const wordleRenderer: TranscriptRenderer = {
  pack: 'wordle',
  opensAt: 'start',
  title: (transcript) => transcript.env?.label?.toUpperCase() ?? 'answer unknown',
  steps: (transcript) => turnsOf(transcript).length,
  render(transcript, view) {
    const guesses = turnsOf(transcript);
    const played = guesses.slice(0, view.shown);
    const scored = played.filter((t) => t.valid && !t.repeated && t.marks).map((t) => ({ guess: t.guess, marks: t.marks as string }));
    // A trace's turns are one model call per move; when they line up, each move shows the reasoning behind it.
    const thinking = (i: number) => (transcript.turns.length === guesses.length ? transcript.turns[i]?.thinking : undefined);
    return h('div', { class: 'wordle' }, grid(scored), turnList(guesses, view, thinking));
  },
};
