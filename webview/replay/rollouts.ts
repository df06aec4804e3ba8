import type { RolloutRow } from '../../src/core/rollouts';
import { numericComponents } from '../../src/core/rollouts/components';
import { componentsText } from '../../src/core/reward/scoreText';
import { h, icon, idText, num, replace } from './dom';
import { argumentSummary } from './renderers/json';

const OUTCOME_ICONS = { solved: 'pass', partial: 'circle-large-outline', lost: 'circle-slash', 'no-play': 'debug-disconnect' } as const;

/** Metrics keys in the order the rows first name them. */
export function metricKeys(rows: readonly Pick<RolloutRow, 'metrics'>[]): string[] {
  const keys = new Set<string>();
  for (const row of rows) for (const key of Object.keys(row.metrics ?? {})) keys.add(key);
  return [...keys];
}

const metricCell = (value: unknown) =>
  value === undefined
    ? '–'
    : typeof value === 'number'
      ? Number.isInteger(value)
        ? String(value)
        : num(value)
      : argumentSummary(value, 24);

/** The rollouts of one group: reward, advantage, turns, tool calls and chosen metrics; pick one to replay, another to compare. */
export class RolloutTable {
  readonly element = h('div', { class: 'rollout-table', attrs: { role: 'listbox', 'aria-label': 'Rollouts in the group' } });
  private rows: RolloutRow[] = [];
  private note = '';
  private title = '';
  /** Metrics columns the user chose; kept across groups. */
  columns: string[] = [];
  selected?: number;
  compare?: number;

  constructor(
    private readonly onSelect: (index: number) => void,
    private readonly onCompare: (index: number | undefined) => void,
    private readonly onColumns: (columns: string[]) => void,
  ) {}

  show(rows: RolloutRow[], title: string, note = ''): void {
    this.rows = rows;
    this.title = title;
    this.note = note;
    this.render();
  }

  private render(): void {
    if (!this.rows.length) {
      replace(this.element, h('div', { class: 'state-message' }, 'No rollout in this group matches the filters.'));
      return;
    }
    const keys = metricKeys(this.rows);
    const shown = this.columns.filter((c) => keys.includes(c));
    const columns = shown.map(() => '58px').join(' ');
    const header = h(
      'div',
      { class: 'rollout-row header', attrs: { 'aria-hidden': 'true' } },
      h('span', { attrs: { title: 'trajectory' } }, 'trajectory'),
      h('span', { attrs: { title: 'reward' } }, 'reward'),
      h('span', { attrs: { title: this.note || 'advantage' } }, 'advantage'),
      h('span', { attrs: { title: 'turns (model calls)' } }, 'turns'),
      h('span', { attrs: { title: 'tool calls' } }, 'tools'),
      ...shown.map((key) => h('span', { attrs: { title: `metrics.${key}` } }, key)),
      h('span', {}, ''),
    );
    header.style.setProperty('--metric-columns', columns);
    replace(
      this.element,
      h('h3', { class: 'pane-title' }, this.title),
      this.note ? h('p', { class: 'group-note muted' }, this.note) : null,
      keys.length ? this.columnPicker(keys, shown) : null,
      header,
      ...this.rows.map((row) => {
        const element = this.rowElement(row, shown);
        element.style.setProperty('--metric-columns', columns);
        return element;
      }),
    );
  }

  private columnPicker(keys: string[], shown: string[]): HTMLElement {
    const picker = h(
      'vscode-multi-select',
      {
        class: 'metric-columns',
        attrs: { 'aria-label': 'Metrics columns', title: 'Metrics the agent returned: pick columns to show' },
        on: {
          change: (e) => {
            this.columns = [...((e.target as unknown as { value: string[] }).value ?? [])];
            this.onColumns(this.columns);
            this.render();
          },
        },
      },
      ...keys.map((key) => h('vscode-option', { attrs: { value: key, selected: shown.includes(key) } }, key)),
    );
    return h('div', { class: 'column-picker' }, h('span', { class: 'muted' }, 'metrics columns'), picker);
  }

  private rowElement(row: RolloutRow, shown: string[]): HTMLElement {
    const selected = row.index === this.selected;
    const compared = row.index === this.compare;
    const advantageClass = row.advantage === null ? '' : row.advantage > 0 ? 'positive' : row.advantage < 0 ? 'negative' : '';
    const failed = row.status !== 'completed';
    const components = componentsText(row.reward ?? NaN, numericComponents(row.metrics));
    return h(
      'div',
      {
        class: `rollout-row${selected ? ' selected' : ''}${compared ? ' compared' : ''}`,
        attrs: { role: 'option', tabindex: 0, 'aria-selected': selected ? 'true' : 'false', 'data-rollout': row.index },
        on: { click: () => this.pick(row.index), keydown: (e) => this.key(e as KeyboardEvent, row.index) },
      },
      h(
        'span',
        { class: 'trajectory' },
        failed ? icon(row.status === 'error' ? 'error' : 'debug-step-over', row.status) : icon(OUTCOME_ICONS[row.outcome], row.outcome),
        ' ',
        idText(row.trajectoryId),
        row.rebuilt ? h('span', { class: 'muted' }, ' (rebuilt)') : null,
        ...(row.findings ?? []).map((kind) => h('span', { class: 'finding-mark', attrs: { title: `scan: ${kind}` } }, kind)),
      ),
      h('span', { class: 'number' }, num(row.reward)),
      h('span', { class: `number ${advantageClass}` }, num(row.advantage, 2)),
      h('span', { class: 'number' }, String(row.turns)),
      h('span', { class: 'number' }, String(row.toolCalls)),
      ...shown.map((key) => h('span', { class: 'number metric' }, metricCell(row.metrics?.[key]))),
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
            this.render();
            this.onCompare(this.compare);
          },
        },
      }),
      components ? h('span', { class: 'rollout-components muted' }, components) : null,
    );
  }

  /** Enter replays the row; ↑/↓ move between rows. */
  private key(e: KeyboardEvent, index: number): void {
    if (e.target !== e.currentTarget) return;
    if (e.key === 'Enter') this.pick(index);
    else if (e.key === 'ArrowDown' || e.key === 'ArrowUp') {
      const next = (
        e.key === 'ArrowDown'
          ? (e.currentTarget as HTMLElement).nextElementSibling
          : (e.currentTarget as HTMLElement).previousElementSibling
      ) as HTMLElement | null;
      if (next?.matches('.rollout-row[data-rollout]')) next.focus();
      e.preventDefault();
    }
  }

  private pick(index: number): void {
    this.selected = index;
    this.render();
    this.onSelect(index);
    this.element.querySelector<HTMLElement>(`.rollout-row[data-rollout="${index}"]`)?.focus();
  }
}
