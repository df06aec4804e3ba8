import type { RolloutRow } from '../../src/core/rollouts';
import { h, icon, idText, num, replace } from './dom';

const OUTCOME_ICONS = { solved: 'pass', lost: 'circle-slash', 'no-play': 'debug-disconnect' } as const;

/** The rollouts of one group: reward, advantage, moves, outcome; pick one to replay, another to compare. */
export class RolloutTable {
  readonly element = h('div', { class: 'rollout-table', attrs: { role: 'listbox', 'aria-label': 'Rollouts in the group' } });
  private rows: RolloutRow[] = [];
  selected?: number;
  compare?: number;

  constructor(
    private readonly onSelect: (index: number) => void,
    private readonly onCompare: (index: number | undefined) => void,
  ) {}

  private note = '';

  show(rows: RolloutRow[], title: string, note = ''): void {
    this.rows = rows;
    this.note = note;
    this.render(title);
  }

  private render(title: string): void {
    if (!this.rows.length) {
      replace(this.element, h('div', { class: 'state-message' }, 'No rollout in this group matches the filters.'));
      return;
    }
    replace(
      this.element,
      h('h3', { class: 'pane-title' }, title),
      this.note ? h('p', { class: 'group-note muted' }, this.note) : null,
      h(
        'div',
        { class: 'rollout-row header', attrs: { 'aria-hidden': 'true' } },
        h('span', { attrs: { title: 'trajectory' } }, 'trajectory'),
        h('span', { attrs: { title: 'reward' } }, 'reward'),
        h('span', { attrs: { title: this.note || 'advantage' } }, 'advantage'),
        h('span', { attrs: { title: "moves that counted (tool calls, or the environment's own count)" } }, 'moves'),
        h('span', {}, ''),
      ),
      ...this.rows.map((row) => this.rowElement(row, title)),
    );
  }

  private rowElement(row: RolloutRow, title: string): HTMLElement {
    const selected = row.index === this.selected;
    const compared = row.index === this.compare;
    const advantageClass = row.advantage === null ? '' : row.advantage > 0 ? 'positive' : row.advantage < 0 ? 'negative' : '';
    return h(
      'div',
      {
        class: `rollout-row${selected ? ' selected' : ''}${compared ? ' compared' : ''}`,
        attrs: { role: 'option', tabindex: 0, 'aria-selected': selected ? 'true' : 'false', 'data-rollout': row.index },
        on: {
          click: () => this.pick(row.index, title),
          keydown: (e) => {
            if ((e as KeyboardEvent).key === 'Enter') this.pick(row.index, title);
          },
        },
      },
      h(
        'span',
        { class: 'trajectory' },
        icon(OUTCOME_ICONS[row.outcome], row.outcome),
        ' ',
        idText(row.trajectoryId),
        row.rebuilt ? h('span', { class: 'muted' }, ' (rebuilt)') : null,
      ),
      h('span', { class: 'number' }, num(row.reward)),
      h('span', { class: `number ${advantageClass}` }, num(row.advantage, 2)),
      h('span', { class: 'number' }, String(row.moves)),
      h('vscode-button', {
        class: 'compare-button',
        attrs: {
          icon: 'split-horizontal',
          secondary: true,
          title: compared ? 'Stop comparing' : 'Compare with the selected rollout',
          'aria-label': compared ? 'Stop comparing' : `Compare ${row.trajectoryId}`,
        },
        on: {
          click: (e) => {
            e.stopPropagation();
            this.compare = compared ? undefined : row.index;
            this.render(title);
            this.onCompare(this.compare);
          },
        },
      }),
    );
  }

  private pick(index: number, title: string): void {
    this.selected = index;
    this.render(title);
    this.onSelect(index);
  }
}
