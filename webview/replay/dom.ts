import { visibleText } from '../../src/core/text/display';
import { shortenMiddle } from '../../src/core/text/shorten';

/** DOM building with text nodes only: log content never goes through innerHTML, and bidi or control characters in it show as markers. */

type Child = Node | string | number | null | undefined | false;

export interface Props {
  class?: string;
  /** Attributes set with setAttribute (never `on*` handlers, never HTML). */
  attrs?: Record<string, string | number | boolean | undefined>;
  on?: Record<string, (event: Event) => void>;
}

export function h<K extends keyof HTMLElementTagNameMap>(tag: K, props?: Props, ...children: Child[]): HTMLElementTagNameMap[K];
export function h(tag: string, props?: Props, ...children: Child[]): HTMLElement;
export function h(tag: string, props: Props = {}, ...children: Child[]): HTMLElement {
  const element = document.createElement(tag);
  if (props.class) element.className = props.class;
  for (const [name, value] of Object.entries(props.attrs ?? {})) {
    if (value === undefined || value === false) continue;
    element.setAttribute(name, value === true ? '' : visibleText(String(value)));
  }
  for (const [event, listener] of Object.entries(props.on ?? {})) element.addEventListener(event, listener);
  append(element, children);
  return element;
}

export function append(parent: Node, children: Child[]): void {
  for (const child of children) {
    if (child === null || child === undefined || child === false) continue;
    parent.appendChild(typeof child === 'object' ? child : document.createTextNode(visibleText(String(child))));
  }
}

/** Replaces every child of `parent`. */
export function replace(parent: Node, ...children: Child[]): void {
  while (parent.firstChild) parent.removeChild(parent.firstChild);
  append(parent, children);
}

export function icon(name: string, label?: string): HTMLElement {
  return h('span', { class: `codicon codicon-${name}`, attrs: label ? { 'aria-label': label, role: 'img' } : { 'aria-hidden': 'true' } });
}

const SVG = 'http://www.w3.org/2000/svg';

export function svg(tag: string, attrs: Record<string, string | number> = {}, ...children: Child[]): SVGElement {
  const element = document.createElementNS(SVG, tag);
  for (const [name, value] of Object.entries(attrs)) element.setAttribute(name, String(value));
  append(element, children);
  return element;
}

/** A number for display: fixed decimals, or an en dash when absent. */
export function num(value: number | null | undefined, digits = 3): string {
  return value === null || value === undefined || Number.isNaN(value) ? '–' : value.toFixed(digits);
}

/** Characters of an id shown in a narrow place (a table cell, a header); the whole id is in the tooltip. */
export const ID_CHARS = 28;

/** A long id (a trajectory id, a job name, a file path) cut in the middle, with the whole id as its tooltip. */
export function idText(id: string, max = ID_CHARS, className?: string): HTMLElement {
  const short = shortenMiddle(id, max);
  return h('span', { class: className, attrs: { title: short === id ? undefined : id } }, short);
}
