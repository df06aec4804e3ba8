import { h, icon } from '../dom';
import type { TurnView } from './types';

/** A `<details>` whose open state survives the player's re-render at each step. */
export function section(key: string, view: TurnView, className: string, summary: (Node | string)[], body: HTMLElement): HTMLElement {
  const details = h('details', { class: className, attrs: { open: view.opened.has(key) } }, h('summary', {}, ...summary), body);
  details.addEventListener('toggle', () => {
    if ((details as HTMLDetailsElement).open) view.opened.add(key);
    else view.opened.delete(key);
  });
  return details;
}

/** A turn's reasoning, folded: long, and read only when an action puzzles. */
export function thinkingSection(thinking: string, turn: number, view: TurnView): HTMLElement {
  return section(
    `thinking-${turn}`,
    view,
    'thinking',
    [icon('lightbulb'), ` Thinking (${thinking.length.toLocaleString()} characters)`],
    h('pre', { class: 'thinking-text' }, thinking),
  );
}
