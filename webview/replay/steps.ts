import type { StepAxis, StepSummary } from '../../src/core/rollouts';
import { h, num, replace, svg } from './dom';

export type StepRange = { from: number; to: number } | undefined;

const HEIGHT = 56;
/** The plot is 160–480 px wide whatever the number of steps; bars share it. */
const MIN_WIDTH = 160;
const MAX_WIDTH = 480;

/**
 * The step axis: solve rate by step as bars (mean reward in each bar's tooltip and the table), a from/to picker,
 * "Latest" and "All steps". Click a bar to show that step; shift-click to extend the range.
 */
export class StepPicker {
  readonly element = h('section', { class: 'step-axis', attrs: { 'aria-label': 'Training steps' } });
  private readonly from = h('vscode-textfield', {
    class: 'step-from',
    attrs: { 'aria-label': 'First step', title: 'First step', placeholder: 'from' },
  }) as unknown as HTMLInputElement;
  private readonly to = h('vscode-textfield', {
    class: 'step-to',
    attrs: { 'aria-label': 'Last step', title: 'Last step', placeholder: 'to' },
  }) as unknown as HTMLInputElement;
  private axis: StepAxis = { steps: [], unknown: 0 };
  private range: StepRange;

  constructor(private readonly onPick: (range: StepRange) => void) {
    for (const field of [this.from, this.to]) field.addEventListener('change', () => this.typed());
  }

  get value(): StepRange {
    return this.range;
  }

  /** Draws the axis for the data read so far and the range shown. */
  show(axis: StepAxis, range: StepRange): void {
    this.axis = axis;
    this.range = range;
    this.from.value = range ? String(range.from) : '';
    this.to.value = range ? String(range.to) : '';
    const { steps, unknown } = axis;
    this.element.hidden = !steps.length && !unknown;
    const last = steps.at(-1)?.step;
    replace(
      this.element,
      h(
        'div',
        { class: 'step-controls' },
        h('strong', {}, 'Steps'),
        this.from as unknown as HTMLElement,
        '–',
        this.to as unknown as HTMLElement,
        h(
          'vscode-button',
          {
            class: 'step-latest',
            attrs: { secondary: true, disabled: last === undefined, title: 'Show the latest step' },
            on: { click: () => last !== undefined && this.pick({ from: last, to: last }) },
          },
          'Latest',
        ),
        h(
          'vscode-button',
          { class: 'step-all', attrs: { secondary: true, title: 'Show every step' }, on: { click: () => this.pick(undefined) } },
          'All steps',
        ),
        h('span', { class: 'step-shown muted' }, this.describe()),
      ),
      steps.length ? this.chart(steps) : null,
      unknown
        ? h(
            'p',
            { class: 'pooled-note', attrs: { role: 'note' } },
            `${unknown.toLocaleString()} rollout${unknown === 1 ? ' has' : 's have'} no known step: ${unknown === 1 ? 'its group pools' : 'their groups pool'} every step of a task, so ${unknown === 1 ? 'its advantage is' : 'their advantages are'} not the policy's. Log "step" in the rollout record, or open the job so its service log dates them.`,
          )
        : null,
    );
  }

  private describe(): string {
    const shown = this.axis.steps.filter((s) => !this.range || (s.step >= this.range.from && s.step <= this.range.to));
    if (!shown.length) return this.range ? 'no rollout in these steps yet' : '';
    const rollouts = shown.reduce((n, s) => n + s.rollouts, 0);
    const solved = shown.reduce((n, s) => n + s.solved, 0);
    const rewarded = shown.filter((s) => s.rewardMean !== null);
    const mean =
      rewarded.reduce((sum, s) => sum + (s.rewardMean ?? 0) * s.rollouts, 0) /
      Math.max(
        1,
        rewarded.reduce((n, s) => n + s.rollouts, 0),
      );
    const which = !this.range
      ? `${shown.length} steps`
      : this.range.from === this.range.to
        ? `step ${this.range.from}`
        : `steps ${this.range.from}–${this.range.to}`;
    return `${which}: solve rate ${((solved / rollouts) * 100).toFixed(1)}%, mean reward ${rewarded.length ? num(mean, 3) : '–'}`;
  }

  /** Solve rate per step (0–100% axis) with each bar's numbers in its tooltip; the chosen range is highlighted. */
  private chart(steps: StepSummary[]): HTMLElement {
    const width = Math.min(MAX_WIDTH, Math.max(MIN_WIDTH, steps.length * 6));
    const bar = width / steps.length;
    const bars = steps.map((s, i) => {
      const height = Math.max(1, s.solveRate * (HEIGHT - 4));
      const chosen = !this.range || (s.step >= this.range.from && s.step <= this.range.to);
      const title = `step ${s.step}: solve rate ${(s.solveRate * 100).toFixed(1)}%, mean reward ${num(s.rewardMean)}, ${s.rollouts} rollouts in ${s.groups} groups (${s.zeroAdvantageGroups} with advantage 0)`;
      const rect = svg(
        'rect',
        {
          class: `step-bar${chosen ? ' chosen' : ''}`,
          x: i * bar,
          y: HEIGHT - height,
          width: Math.max(1, bar - (bar > 3 ? 1 : 0)),
          height,
          'data-step': s.step,
        },
        svg('title', {}, title),
      );
      rect.addEventListener('click', (e) => this.clicked(s.step, (e as MouseEvent).shiftKey));
      return rect;
    });
    return h(
      'div',
      { class: 'step-chart' },
      h(
        'div',
        { class: 'step-yaxis muted', attrs: { 'aria-hidden': 'true' } },
        h('span', {}, '100%'),
        h('span', {}, 'solve rate'),
        h('span', {}, '0%'),
      ),
      h(
        'div',
        { class: 'step-plot' },
        svg(
          'svg',
          {
            viewBox: `0 0 ${width} ${HEIGHT}`,
            width,
            height: HEIGHT,
            preserveAspectRatio: 'none',
            role: 'img',
            'aria-label': `Solve rate by step, steps ${steps[0].step} to ${steps.at(-1)!.step}`,
          },
          ...bars,
        ),
        h(
          'div',
          { class: 'step-xaxis muted', attrs: { 'aria-hidden': 'true' } },
          h('span', {}, `step ${steps[0].step}`),
          h('span', {}, `step ${steps.at(-1)!.step}`),
        ),
      ),
    );
  }

  private clicked(step: number, extend: boolean): void {
    if (extend && this.range) this.pick({ from: Math.min(this.range.from, step), to: Math.max(this.range.to, step) });
    else this.pick({ from: step, to: step });
  }

  private typed(): void {
    const read = (field: HTMLInputElement) => (field.value.trim() === '' ? undefined : Number(field.value.trim()));
    const from = read(this.from);
    const to = read(this.to);
    const ok = (n: number | undefined) => n === undefined || (Number.isInteger(n) && n >= 0);
    this.from.toggleAttribute('invalid', !ok(from));
    this.to.toggleAttribute('invalid', !ok(to));
    if (!ok(from) || !ok(to)) return;
    if (from === undefined && to === undefined) return this.pick(undefined);
    const a = from ?? to!;
    const b = to ?? from!;
    this.pick({ from: Math.min(a, b), to: Math.max(a, b) });
  }

  private pick(range: StepRange): void {
    this.range = range;
    this.onPick(range);
  }
}
