import type { ActionRow, ActionTable } from '../../src/core/rollouts';
import { h, icon, replace } from './dom';

export type ActionSort = 'action' | 'above' | 'below' | 'difference';

/** A row as shown: the call in one line, and the difference of its shares (positive: more common in better rollouts). */
export interface ShownAction {
  action: string;
  difference: number;
  row: ActionRow;
}

/** `take_support_action action=restart_router`: the tool, and the argument value when the row counts one. */
export function actionLabel(row: Pick<ActionRow, 'tool' | 'argument' | 'value'>): string {
  if (row.argument) return `${row.tool} ${row.argument}=${row.value}`;
  return row.value ? `${row.tool} ${row.value}` : row.tool;
}

/** Rows sorted for display. `difference` puts the most telling first whatever its sign; ties keep the action's name order. */
export function sortActions(table: ActionTable, sort: ActionSort = 'difference', descending = true): ShownAction[] {
  const rows = table.rows.map((row) => ({ action: actionLabel(row), difference: row.aboveShare - row.belowShare, row }));
  const key: Record<Exclude<ActionSort, 'action'>, (r: ShownAction) => number> = {
    above: (r) => r.row.aboveShare,
    below: (r) => r.row.belowShare,
    difference: (r) => Math.abs(r.difference),
  };
  const sign = descending ? -1 : 1;
  const byName = (a: ShownAction, b: ShownAction) => a.action.localeCompare(b.action);
  if (sort === 'action') return rows.sort((a, b) => sign * byName(a, b));
  return rows.sort((a, b) => sign * (key[sort](a) - key[sort](b)) || byName(a, b));
}

const percent = (share: number) => `${Math.round(share * 100)}%`;

const COLUMNS: { sort: ActionSort; label: string; title: string }[] = [
  { sort: 'action', label: 'tool call', title: 'The tool, and each argument value it was called with' },
  { sort: 'above', label: 'above avg.', title: 'Share of rollouts above their group’s mean reward that made this call' },
  { sort: 'below', label: 'below avg.', title: 'Share of rollouts below their group’s mean reward that made this call' },
  { sort: 'difference', label: 'difference', title: 'Above minus below: positive calls go with better rollouts, negative with worse' },
];

/** The action table: which calls go with above- or below-average rollouts in the steps shown; headers sort, by mouse or keyboard. */
export class ActionTableView {
  readonly element = h('section', { class: 'actions', attrs: { 'aria-label': 'Action table' } });
  /** Folded by the user: the table gives its height back to the rollouts. */
  private folded = false;
  private table: ActionTable = { above: 0, below: 0, rows: [] };
  private sort: ActionSort = 'difference';
  private descending = true;

  show(table: ActionTable): void {
    this.table = table;
    this.render();
  }

  private sortBy(sort: ActionSort): void {
    this.descending = this.sort === sort ? !this.descending : sort !== 'action';
    this.sort = sort;
    this.render();
    this.element.querySelector<HTMLButtonElement>(`button[data-sort="${sort}"]`)?.focus();
  }

  private render(): void {
    const { above, below } = this.table;
    const rows = sortActions(this.table, this.sort, this.descending);
    const caption = `Tool calls in ${above} above- and ${below} below-average rollouts of their groups (steps shown)`;
    if (!rows.length) {
      replace(this.element, h('p', { class: 'muted' }, icon('info'), ' No tool call in the rollouts shown: the action table is empty.'));
      return;
    }
    const header = COLUMNS.map((c) =>
      h(
        'th',
        { attrs: { scope: 'col', 'aria-sort': this.sort === c.sort ? (this.descending ? 'descending' : 'ascending') : undefined } },
        h(
          'button',
          { class: 'sort', attrs: { 'data-sort': c.sort, title: c.title }, on: { click: () => this.sortBy(c.sort) } },
          c.label,
          this.sort === c.sort ? icon(this.descending ? 'arrow-down' : 'arrow-up') : null,
        ),
      ),
    );
    const details = h(
      'details',
      { attrs: { open: !this.folded } },
      h('summary', { class: 'actions-summary' }, h('strong', {}, 'Action table'), ' · ', caption),
      h(
        'div',
        { class: 'actions-scroll', attrs: { tabindex: 0, role: 'region', 'aria-label': caption } },
        h('table', { class: 'action-table' }, h('thead', {}, h('tr', {}, ...header)), h('tbody', {}, ...rows.map((r) => this.row(r)))),
      ),
    );
    details.addEventListener('toggle', () => (this.folded = !(details as HTMLDetailsElement).open));
    replace(this.element, details);
  }

  private row(r: ShownAction): HTMLElement {
    const lean = r.difference > 0 ? 'positive' : r.difference < 0 ? 'negative' : '';
    const bar = (share: number, kind: string) => {
      const fill = h('span', { class: `share-fill ${kind}` });
      fill.style.width = percent(share);
      return h('span', { class: 'share-bar', attrs: { 'aria-hidden': 'true' } }, fill);
    };
    const { above, below, aboveShare, belowShare, tool } = r.row;
    return h(
      'tr',
      { attrs: { 'data-tool': tool } },
      h('th', { class: 'action-name', attrs: { scope: 'row', title: r.action } }, h('code', {}, r.action)),
      h(
        'td',
        { class: 'number', attrs: { title: `${above} of ${this.table.above} above-average rollouts` } },
        bar(aboveShare, 'above'),
        percent(aboveShare),
      ),
      h(
        'td',
        { class: 'number', attrs: { title: `${below} of ${this.table.below} below-average rollouts` } },
        bar(belowShare, 'below'),
        percent(belowShare),
      ),
      h('td', { class: `number ${lean}` }, `${r.difference > 0 ? '+' : ''}${Math.round(r.difference * 100)} pts`),
    );
  }
}
