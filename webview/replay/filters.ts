import type { RolloutFilter, RolloutOutcome } from '../../src/core/rollouts';
import { h } from './dom';

const OUTCOMES: [RolloutOutcome, string, string][] = [
  ['solved', 'Solved', "Reward at or above the job's success threshold"],
  ['partial', 'Partial', 'Partial credit: a reward above 0, below the success threshold'],
  ['lost', 'Unsolved', 'Made a move, earned nothing (reward 0 or less)'],
  ['no-play', 'No move', 'Called no tool (a game: made no valid move)'],
];

/** The filter bar: outcome checkboxes (solved, partial credit, unsolved, no move at all), reward range, search by task or id. */
export class FilterBar {
  readonly element: HTMLElement;
  private readonly boxes = new Map<RolloutOutcome, HTMLInputElement>();
  private readonly min: HTMLInputElement;
  private readonly max: HTMLInputElement;
  private readonly search: HTMLInputElement;
  private readonly problem = h('span', { class: 'filter-problem', attrs: { role: 'alert' } });
  private debounce?: ReturnType<typeof setTimeout>;

  constructor(private readonly onChange: (filter: RolloutFilter) => void) {
    const changed = () => this.changed();
    const typed = () => {
      clearTimeout(this.debounce);
      this.debounce = setTimeout(changed, 200);
    };
    for (const [outcome, label, title] of OUTCOMES) {
      this.boxes.set(
        outcome,
        h('vscode-checkbox', {
          class: `filter-${outcome}`,
          attrs: { label, title, checked: true },
          on: { change: changed },
        }) as unknown as HTMLInputElement,
      );
    }
    const field = (name: string, placeholder: string, label: string) =>
      h('vscode-textfield', {
        class: `filter-${name}`,
        attrs: { placeholder, 'aria-label': label, title: label },
        on: { input: typed },
      }) as unknown as HTMLInputElement;
    this.min = field('min', 'min reward', 'Lowest reward to show');
    this.max = field('max', 'max reward', 'Highest reward to show');
    this.search = field('search', 'search task or id', 'Search by task, row id or trajectory id');
    this.element = h(
      'div',
      { class: 'filters', attrs: { role: 'search' } },
      ...[...this.boxes.values()].map((b) => b as unknown as HTMLElement),
      this.min as unknown as HTMLElement,
      this.max as unknown as HTMLElement,
      this.search as unknown as HTMLElement,
      this.problem,
      h('vscode-button', {
        attrs: { icon: 'clear-all', secondary: true, title: 'Clear filters', 'aria-label': 'Clear filters' },
        on: { click: () => this.set({}, true) },
      }),
    );
  }

  get value(): RolloutFilter {
    const filter: RolloutFilter = {};
    const outcomes = OUTCOMES.map(([o]) => o).filter((o) => this.boxes.get(o)!.checked);
    if (outcomes.length < OUTCOMES.length) filter.outcomes = outcomes;
    const min = this.number(this.min);
    const max = this.number(this.max);
    const bad = [this.min, this.max]
      .filter((f) => f.hasAttribute('invalid'))
      .map((f) => `"${f.value.trim()}" is not a number: that bound is ignored.`);
    this.problem.textContent = bad.join(' ');
    if (min !== undefined) filter.minReward = min;
    if (max !== undefined) filter.maxReward = max;
    const search = this.search.value.trim();
    if (search) filter.search = search;
    return filter;
  }

  /** Shows a filter (restored state, or cleared); `notify` reports it as a change. */
  set(filter: RolloutFilter, notify = false): void {
    for (const [outcome, box] of this.boxes) box.checked = !filter.outcomes || filter.outcomes.includes(outcome);
    this.min.value = filter.minReward === undefined ? '' : String(filter.minReward);
    this.max.value = filter.maxReward === undefined ? '' : String(filter.maxReward);
    this.search.value = filter.search ?? '';
    if (notify) this.changed();
    else void this.value;
  }

  /** A reward bound, or undefined when empty; a bad entry is flagged with a sentence and ignored. */
  private number(field: HTMLInputElement): number | undefined {
    const text = field.value.trim();
    const value = text === '' ? undefined : Number(text);
    const bad = value !== undefined && !Number.isFinite(value);
    field.toggleAttribute('invalid', bad);
    return bad ? undefined : value;
  }

  private changed(): void {
    this.onChange(this.value);
  }
}
