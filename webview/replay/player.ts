import { packVerdictNote, verdictText } from '../../src/core/rollouts/verdict';
import type { Transcript } from '../../src/core/transcript/model';
import { h, icon, idText, num, replace } from './dom';
import { rendererFor } from './renderers';
import { argumentSummary } from './renderers/json';
import type { TranscriptRenderer } from './renderers/types';

const SPEEDS = [0.5, 1, 2, 4];
const STEP_MS = 900;

/** What the player shows: a rollout and its advantage in its group. */
export interface PlayerRollout {
  transcript: Transcript;
  advantage: number | null;
}

/** A metrics value in the reward line: numbers to three places, everything else as short text. */
function metricText(value: unknown): string {
  if (typeof value === 'number') return Number.isInteger(value) ? String(value) : num(value);
  return argumentSummary(value, 40);
}

/** One rollout replayed turn by turn through its pack's renderer: play/pause/step/speed, the first difference when comparing. */
export class RolloutPlayer {
  readonly element = h('section', { class: 'player', attrs: { tabindex: 0, 'aria-label': 'Rollout replay' } });
  private shown?: PlayerRollout;
  private renderer?: TranscriptRenderer;
  private turn = 0;
  private speed = 1;
  private timer?: ReturnType<typeof setInterval>;
  private difference?: number;
  private opened = new Set<string>();

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
    return this.shown?.transcript.id;
  }
  get transcript(): Transcript | undefined {
    return this.shown?.transcript;
  }
  private get total(): number {
    const t = this.shown?.transcript;
    return t ? (this.renderer?.steps?.(t) ?? t.turns.length) : 0;
  }

  /** Shows a rollout at a turn; without one, where its renderer opens (a game at its start, a transcript whole). */
  show(rollout: PlayerRollout | undefined, turn?: number): void {
    this.pause();
    this.shown = rollout;
    this.renderer = rollout && rendererFor(rollout.transcript);
    this.difference = undefined;
    this.opened = new Set();
    const start = turn ?? (this.renderer?.opensAt === 'end' ? this.total : 0);
    this.turn = Math.max(0, Math.min(start, this.total));
    this.render();
  }

  /** Marks the first turn where the compared rollout acts differently (undefined: none, or not comparing). */
  markDifference(turn: number | undefined): void {
    this.difference = turn;
    this.render();
  }

  toggle(): void {
    if (this.playing) this.pause();
    else this.play();
  }

  play(): void {
    const total = this.total;
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
    const next = Math.max(0, Math.min(this.total, this.turn + delta));
    if (next === this.turn) return;
    this.turn = next;
    this.onTurn(this.turn);
    this.render();
    // Stepping through a long transcript keeps the turn just played in view.
    this.element.querySelector('.turn.current')?.scrollIntoView({ block: 'nearest' });
  }

  private render(): void {
    const shown = this.shown;
    if (!shown || !this.renderer) {
      replace(this.element, h('div', { class: 'state-message' }, icon('play-circle'), ' Pick a rollout to replay it.'));
      return;
    }
    const t = shown.transcript;
    const title = this.renderer.title(t);
    replace(
      this.element,
      h(
        'header',
        { class: 'player-header' },
        h('h2', { class: this.renderer.pack ? `title-${this.renderer.pack}` : 'title-task', attrs: { title } }, title),
        this.outcomeBadge(shown),
        idText(t.id, undefined, 'muted'),
      ),
      this.rewardLine(shown),
      t.status === 'error' && t.error ? h('p', { class: 'rollout-error' }, icon('error'), ' ', t.error) : null,
      this.controls(),
      this.renderer.render(t, { shown: this.turn, firstDifference: this.difference, opened: this.opened }),
    );
  }

  private outcomeBadge({ transcript: t }: PlayerRollout): HTMLElement {
    if (t.status !== 'completed') return h('span', { class: `badge outcome-${t.status}` }, t.status);
    const verdict = verdictText(t);
    const kind = t.solved ? 'solved' : verdict.startsWith('partial') ? 'partial' : 'unsolved';
    const note = packVerdictNote(t);
    return h(
      'span',
      { class: 'verdict' },
      h('span', { class: `badge outcome-${kind}` }, verdict),
      note ? h('span', { class: 'muted verdict-note' }, ` (${note})`) : null,
    );
  }

  private rewardLine({ transcript: t, advantage }: PlayerRollout): HTMLElement {
    const metrics = Object.entries(t.metrics ?? {});
    return h(
      'div',
      { class: 'reward-line' },
      h('span', {}, 'reward ', h('strong', {}, num(t.reward ?? null))),
      ...metrics.map(([key, value]) => h('span', { class: 'metric' }, `${key} `, metricText(value))),
      h('span', {}, 'advantage ', num(advantage, 2)),
      t.rebuilt
        ? h(
            'span',
            { class: 'muted', attrs: { title: 'Rebuilt from SDK and feedback lines: no rollout record or trace was read' } },
            icon('warning'),
            ' rebuilt',
          )
        : null,
    );
  }

  private controls(): HTMLElement {
    const total = this.total;
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
    const stop = (then: () => void) => () => {
      this.pause();
      then();
    };
    return h(
      'div',
      { class: 'controls', attrs: { role: 'toolbar', 'aria-label': 'Replay controls' } },
      button(
        'debug-restart',
        'Back to the start (Home)',
        stop(() => this.step(-this.turn)),
        this.turn === 0,
      ),
      button('chevron-left', 'Previous turn (←)', () => this.step(-1), this.turn === 0),
      button(this.playing ? 'debug-pause' : 'play', this.playing ? 'Pause (space)' : 'Play (space)', () => this.toggle(), total === 0),
      button('chevron-right', 'Next turn (→)', () => this.step(1), this.turn >= total),
      button(
        'debug-continue',
        'Every turn (End)',
        stop(() => this.step(total - this.turn)),
        this.turn >= total,
      ),
      speed,
      h('span', { class: 'turn-count', attrs: { 'aria-live': 'polite' } }, `turn ${this.turn} / ${total}`),
    );
  }

  private setSpeed(speed: number): void {
    if (!SPEEDS.includes(speed)) return;
    this.speed = speed;
    if (this.playing) this.play();
  }
}
