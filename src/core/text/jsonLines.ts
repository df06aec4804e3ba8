import { parseOutsideJson } from './json';

/** Where JSON Lines reading stopped: the 1-based line, and whether it was not JSON at all or JSON `take` did not want. */
export interface JsonLinesStop {
  line: number;
  notJson: boolean;
}

/**
 * JSON Lines, one value a non-blank line, each kept by `take` (undefined when it is not what the file should hold).
 * Reading stops at the first line that is not JSON or not kept, so a caller names that line and keeps what came before.
 */
export function readJsonLines<T>(text: string, take: (value: unknown) => T | undefined): { items: T[]; stop?: JsonLinesStop } {
  const items: T[] = [];
  const lines = text.split(/\r?\n/);
  for (let i = 0; i < lines.length; i++) {
    if (!lines[i].trim()) continue;
    let value: unknown;
    try {
      value = parseOutsideJson(lines[i]);
    } catch {
      return { items, stop: { line: i + 1, notJson: true } };
    }
    const item = take(value);
    if (item === undefined) return { items, stop: { line: i + 1, notJson: false } };
    items.push(item);
  }
  return { items };
}
