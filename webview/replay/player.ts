import type { RolloutDetail } from '../../src/core/rollouts';
import type { Transcript } from '../../src/core/transcript/model';
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
} from '../../src/core/environments/wordle';
import { h, icon, idText, num, replace } from './dom';

const SPEEDS = [0.5, 1, 2, 4];

/** The game a transcript played: the Wordle pack's turns; another agent's tool calls as turns without tiles. */
function gameOf(t: Transcript): { answer?: string; turns: WordleTurn[] } {
  if (t.env?.pack === 'wordle') return t.env.data as WordleData;
  const turns = t.turns.flatMap((turn) =>
    turn.toolCalls.map((c): WordleTurn => ({ guess: `${c.name} ${JSON.stringify(c.arguments)}`, valid: false, source: 'tool' })),
  );
  return { turns };
}
const STEP_MS = 900;

/** One Wordle board that replays a rollout turn by turn: play/pause/step/speed, per-turn feedback and knowledge. */
export class RolloutPlayer {
  readonly element = h('section', { class: 'player', attrs: { tabindex: 0, 'aria-label': 'Rollout replay' } });
  private detail?: RolloutDetail;
  private turn = 0;
  private speed = 1;
  private timer?: ReturnType<typeof setInterval>;

  constructor(private readonly onTurn: (turn: number) => void) {
    this.render();
  }

  get currentTurn(): number {
    return this.turn;
  }
  get playing(): boolean {
    return this.timer !== undefined;
  }
  get trajectoryId(): string | undefined {
    return this.detail?.transcript.id;
  }

  /** Shows a rollout at a turn (default: the start, ready to play). */
  show(detail: RolloutDetail | undefined, turn = 0): void {
    this.pause();
    this.detail = detail;
    this.turn = Math.max(0, Math.min(turn, detail ? gameOf(detail.transcript).turns.length : 0));
    this.render();
  }

  toggle(): void {
    if (this.playing) this.pause();
    else this.play();
  }

  play(): void {
    const total = this.detail ? gameOf(this.detail.transcript).turns.length : 0;
    if (!total) return;
    if (this.turn >= total) this.turn = 0;
    this.pause();
    this.timer = setInterval(() => {
      this.step(1);
      if (this.turn >= total) this.pause();
    }, STEP_MS / this.speed);
    this.render();
  }

  pause(): void {
    if (this.timer === undefined) return;
    clearInterval(this.timer);
    this.timer = undefined;
    this.render();
  }

  step(delta: number): void {
    const total = this.detail ? gameOf(this.detail.transcript).turns.length : 0;
    const next = Math.max(0, Math.min(total, this.turn + delta));
    if (next === this.turn) return;
    this.turn = next;
    this.onTurn(this.turn);
    this.render();
  }

  private render(): void {
    const d = this.detail;
    if (!d) {
      replace(this.element, h('div', { class: 'state-message' }, icon('play-circle'), ' Pick a rollout to replay it.'));
      return;
    }
    const t = d.transcript;
    const r = gameOf(t);
    const played = r.turns.slice(0, this.turn);
    const scored: ScoredGuess[] = played
      .filter((t) => t.valid && !t.repeated && t.marks)
      .map((t) => ({ guess: t.guess, marks: t.marks as string }));
    const outcome = t.solved ? 'solved' : r.turns.some((turn) => turn.valid) ? 'lost' : 'no play';
    const metric = (key: string) => (typeof t.metrics?.[key] === 'number' ? (t.metrics[key] as number) : undefined);
    replace(
      this.element,
      h(
        'header',
        { class: 'player-header' },
        h('h2', {}, r.answer ? r.answer.toUpperCase() : (t.env?.label ?? 'answer unknown')),
        h('span', { class: `badge outcome-${outcome.replace(' ', '-')}` }, outcome),
        idText(t.id, undefined, 'muted'),
      ),
      h(
        'div',
        { class: 'reward-line' },
        h('span', {}, 'reward ', h('strong', {}, num(t.reward ?? null))),
        metric('outcome') !== undefined ? h('span', {}, 'outcome ', num(metric('outcome')!)) : null,
        metric('shaping') !== undefined ? h('span', {}, 'shaping ', num(metric('shaping')!)) : null,
        h('span', {}, 'advantage ', num(d.advantage, 2)),
        t.rebuilt
          ? h(
              'span',
              { class: 'muted', attrs: { title: 'Rebuilt from SDK and feedback lines: no rollout record was logged' } },
              icon('warning'),
              ' rebuilt',
            )
          : null,
      ),
      this.grid(scored),
      this.controls(r.turns.length),
      this.turnList(d, played.length),
    );
  }

  private grid(scored: ScoredGuess[]): HTMLElement {
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
      rows.push(
        h(
          'div',
          {
            class: 'tile-row',
            attrs: {
              role: 'group',
              'aria-label': guess ? `Guess ${row + 1}: ${guess.guess.toUpperCase()}` : `Guess ${row + 1}: not played`,
            },
          },
          ...tiles,
        ),
      );
    }
    return h('div', { class: 'grid' }, ...rows);
  }

  private controls(total: number): HTMLElement {
    const button = (name: string, label: string, action: () => void, disabled = false) =>
      h('vscode-button', {
        class: `control control-${name}`,
        attrs: { icon: name, secondary: true, title: label, 'aria-label': label, disabled },
        on: { click: action },
      });
    const speed = h(
      'vscode-single-select',
      {
        class: 'speed',
        attrs: { 'aria-label': 'Replay speed', title: 'Replay speed' },
        on: { change: (e) => this.setSpeed(Number((e.target as HTMLInputElement).value)) },
      },
      ...SPEEDS.map((s) => h('vscode-option', { attrs: { value: s, selected: s === this.speed } }, `${s}×`)),
    );
    return h(
      'div',
      { class: 'controls', attrs: { role: 'toolbar', 'aria-label': 'Replay controls' } },
      button(
        'debug-restart',
        'Back to the start',
        () => {
          this.pause();
          this.step(-this.turn);
        },
        this.turn === 0,
      ),
      button('chevron-left', 'Previous turn (←)', () => this.step(-1), this.turn === 0),
      button(this.playing ? 'debug-pause' : 'play', this.playing ? 'Pause (space)' : 'Play (space)', () => this.toggle(), total === 0),
      button('chevron-right', 'Next turn (→)', () => this.step(1), this.turn >= total),
      speed,
      h('span', { class: 'turn-count', attrs: { 'aria-live': 'polite' } }, `turn ${this.turn} / ${total}`),
    );
  }

  private setSpeed(speed: number): void {
    if (!SPEEDS.includes(speed)) return;
    this.speed = speed;
    if (this.playing) this.play();
  }

  private turnList(d: RolloutDetail, shown: number): HTMLElement {
    const r = gameOf(d.transcript);
    const items: HTMLElement[] = [];
    const scored: ScoredGuess[] = [];
    r.turns.slice(0, shown).forEach((t, i) => {
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
      ];
      items.push(
        h(
          'li',
          { class: `turn${i === shown - 1 ? ' current' : ''}` },
          h(
            'div',
            { class: 'turn-head' },
            h('span', { class: 'turn-index' }, `${i + 1}.`),
            h('code', { class: 'guess' }, t.guess),
            ...badges,
          ),
          i === shown - 1 ? h('pre', { class: 'feedback' }, feedback) : null,
        ),
      );
    });
    const last = r.turns[shown - 1];
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
        : h('p', { class: 'muted' }, r.turns.length ? 'Press play or → to replay the turns.' : 'This rollout made no guess.'),
      knowledge,
    );
  }
}
