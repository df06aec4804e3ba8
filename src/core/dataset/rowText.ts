/** Small readings of a row's values that the row checks share. */

export function kindOf(value: unknown): string {
  if (value === null) return 'null';
  if (Array.isArray(value)) return 'an array';
  if (typeof value === 'object') return 'an object';
  return `a ${typeof value}`;
}

export function isBlank(text: string): boolean {
  for (let i = 0; i < text.length; i++) if (text.charCodeAt(i) > 0x20) return false;
  return true;
}

export function startsLikeJson(text: string): boolean {
  for (let i = 0; i < text.length; i++) {
    const c = text.charCodeAt(i);
    if (c > 0x20) return c === 0x7b || c === 0x5b;
  }
  return false;
}

const isWordChar = (ch: string | undefined) => ch !== undefined && /[\p{L}\p{N}_]/u.test(ch);

export function containsLowerWord(t: string, w: string): boolean {
  if (!w) return false;
  for (let i = t.indexOf(w); i !== -1; i = t.indexOf(w, i + 1)) {
    if (!isWordChar(t[i - 1]) && !isWordChar(t[i + w.length])) return true;
  }
  return false;
}

export function normalizeAnswer(answer: string): string {
  return answer.trim().toLowerCase();
}

export function scalarText(value: unknown): string | undefined {
  if (typeof value === 'string') return value;
  if (typeof value === 'number' || typeof value === 'boolean') return String(value);
  return undefined;
}
