import type { GroupRow, RolloutFilter } from '../../src/core/rollouts';
import { stepLabel } from '../../src/core/rollouts/verdict';
import { componentsText } from '../../src/core/reward/scoreText';
import { h, num, replace } from './dom';
import type { BoardChannel } from './host';

const ROW_HEIGHT = 44;
/** A row with a third line: the group's mean reward components. */
const ROW_HEIGHT_WITH_COMPONENTS = 62;
const PAGE = 100;

/** The virtualized list of GRPO groups: only visible rows exist in the DOM, pages are fetched as they scroll in. */
export class GroupList {
  readonly element = h('div', { class: 'group-list', attrs: { role: 'listbox', tabindex: 0, 'aria-label': 'Groups (one per task)' } });
  private readonly spacer = h('div', { class: 'group-spacer' });
  private pages = new Map<number, GroupRow[] | 'pending'>();
  private filter: RolloutFilter = {};
  private generation = 0;
  total = 0;
  selected?: number;
  private cursor = 0;
  // Every group of a board has components or none does (one reward): the first page decides the rows' height.
  private rowHeight = ROW_HEIGHT;

  constructor(
    private readonly host: BoardChannel,
    private readonly onSelect: (row: GroupRow) => void,
    private readonly onChange: () => void,
  ) {
    this.element.appendChild(this.spacer);
    this.element.addEventListener('scroll', () => this.render());
    this.element.addEventListener('keydown', (e) => this.key(e));
  }

  /** Starts over with a filter (new data or new filter); resolves once the first page is in. */
  async reset(filter: RolloutFilter): Promise<void> {
    this.filter = filter;
    this.generation++;
    this.pages = new Map();
    await this.fetch(0);
    this.render();
  }

  row(position: number): GroupRow | undefined {
    const page = this.pages.get(Math.floor(position / PAGE));
    return Array.isArray(page) ? page[position % PAGE] : undefined;
  }

  private async fetch(page: number): Promise<void> {
    if (this.pages.has(page)) return;
    this.pages.set(page, 'pending');
    const generation = this.generation;
    const { total, rows } = await this.host.request('groups', { filter: this.filter, offset: page * PAGE, count: PAGE });
    if (generation !== this.generation) return;
    this.total = total;
    this.pages.set(page, rows);
    if (page === 0) {
      this.rowHeight = rows.some((r) => r.components) ? ROW_HEIGHT_WITH_COMPONENTS : ROW_HEIGHT;
      this.element.style.setProperty('--row-height', `${this.rowHeight}px`);
    }
    this.spacer.style.height = `${total * this.rowHeight}px`;
    this.render();
    this.onChange();
  }

  render(): void {
    const top = this.element.scrollTop;
    const height = this.element.clientHeight || 600;
    const first = Math.max(0, Math.floor(top / this.rowHeight) - 5);
    const last = Math.min(this.total, Math.ceil((top + height) / this.rowHeight) + 5);
    const rows: HTMLElement[] = [];
    for (let position = first; position < last; position++) {
      const row = this.row(position);
      if (!row) {
        void this.fetch(Math.floor(position / PAGE));
        rows.push(h('div', { class: 'group-row placeholder' }, '…'));
      } else rows.push(this.rowElement(row, position));
      rows[rows.length - 1].style.top = `${position * this.rowHeight}px`;
    }
    replace(this.spacer, ...rows);
  }

  private rowElement(row: GroupRow, position: number): HTMLElement {
    const selected = row.index === this.selected;
    const spread = row.std === null ? '' : `σ ${num(row.std, 2)}`;
    const components = row.components ? componentsText(row.mean ?? NaN, row.components) : '';
    return h(
      'div',
      {
        class: `group-row${selected ? ' selected' : ''}${position === this.cursor ? ' cursor' : ''}`,
        attrs: {
          role: 'option',
          'aria-selected': selected ? 'true' : 'false',
          'data-group': row.index,
          title: components ? `${row.label}\nmean ${num(row.mean, 2)} ${components}` : row.label,
        },
        on: { click: () => this.choose(position) },
      },
      h(
        'div',
        { class: 'group-line' },
        h('strong', { class: 'group-label' }, row.short),
        h('span', { class: 'group-solved' }, `${row.solved}/${row.n} solved`),
      ),
      h(
        'div',
        { class: 'group-line muted' },
        h('span', {}, stepLabel(row.step)),
        h('span', {}, `mean ${num(row.mean, 2)}`),
        h('span', {}, row.zeroAdvantage ? 'advantage 0' : spread),
        row.shown !== row.n ? h('span', {}, `${row.shown} shown`) : null,
      ),
      components ? h('div', { class: 'group-line muted group-components' }, components) : null,
    );
  }

  choose(position: number): void {
    const row = this.row(position);
    if (!row) return;
    this.cursor = position;
    this.selected = row.index;
    this.render();
    this.onSelect(row);
  }

  /** Selects the group with this index if it is on a loaded page, else the first row. */
  selectIndex(index: number | undefined): void {
    for (const [page, rows] of this.pages) {
      const at = Array.isArray(rows) ? rows.findIndex((r) => r.index === index) : -1;
      if (at >= 0) return this.choose(page * PAGE + at);
    }
    if (this.total) this.choose(0);
  }

  private key(e: KeyboardEvent): void {
    const moves: Record<string, number> = { ArrowDown: 1, ArrowUp: -1, PageDown: 10, PageUp: -10, Home: -Infinity, End: Infinity };
    if (e.key === 'Enter') {
      this.choose(this.cursor);
      e.preventDefault();
      return;
    }
    if (!(e.key in moves)) return;
    e.preventDefault();
    this.cursor = Math.max(0, Math.min(this.total - 1, this.cursor + moves[e.key]));
    const y = this.cursor * this.rowHeight;
    if (y < this.element.scrollTop) this.element.scrollTop = y;
    else if (y + this.rowHeight > this.element.scrollTop + this.element.clientHeight)
      this.element.scrollTop = y + this.rowHeight - this.element.clientHeight;
    this.choose(this.cursor);
  }
}
