import type { CheckResult } from './checkResult';

/** A key an object of the text holds twice: JSON.parse keeps the last silently, so the file says two things. */
export interface DuplicateKey {
  /** Where the key sits, e.g. `JobConfigDocument.trainer.lr`. */
  path: string;
  /** Character offset of its second occurrence. */
  offset: number;
}

interface Frame {
  path: string;
  keys?: Set<string>;
  expectKey: boolean;
  index: number;
  lastKey?: string;
}

const childPath = (f: Frame) => (f.keys ? (f.path ? `${f.path}.${f.lastKey}` : (f.lastKey ?? '')) : `${f.path}[${f.index}]`);

/** Every repeated key of valid JSON text, in one linear scan (the text was parsed already, so it is well-formed). */
export function duplicateKeys(text: string): DuplicateKey[] {
  const found: DuplicateKey[] = [];
  const stack: Frame[] = [];
  for (let i = 0; i < text.length; i++) {
    const c = text[i];
    const top = stack[stack.length - 1];
    if (c === '"') {
      const start = i;
      for (i++; text[i] !== '"'; i++) if (text[i] === '\\') i++;
      if (top?.keys && top.expectKey) {
        const key = JSON.parse(text.slice(start, i + 1)) as string;
        if (top.keys.has(key)) found.push({ path: top.path ? `${top.path}.${key}` : key, offset: start });
        top.keys.add(key);
        top.lastKey = key;
        top.expectKey = false;
      }
    } else if (c === '{' || c === '[') {
      stack.push({ path: top ? childPath(top) : '', keys: c === '{' ? new Set() : undefined, expectKey: c === '{', index: 0 });
    } else if (c === '}' || c === ']') stack.pop();
    else if (c === ',' && top) {
      if (top.keys) top.expectKey = true;
      else top.index++;
    }
  }
  return found;
}

/** One warning per repeated key of a job file's text, at its second occurrence; the pre-flight and the editor show them. */
export function duplicateKeyChecks(text: string): (CheckResult & { offset: number })[] {
  return duplicateKeys(text).map((d) => ({
    check: 'jobFile',
    level: 'warn',
    message: `${d.path} appears more than once in the file; JSON keeps only the last value.`,
    fix: `keep one ${d.path.split('.').pop()} and remove the others.`,
    offset: d.offset,
  }));
}
