/** Where the reward is written in a Python file, found from the text alone (cheap enough for every CodeLens request). */
interface RewardLocation {
  /** 0-based line of the `def`. */
  line: number;
  convention: 'class' | 'function';
  /** `final_reward` or the entry function's name. */
  name: string;
}

/** The function part of `mtrl.reward.entry` (`path/to/file.py:function` or just `function`) and its path, if any. */
export function parseEntrySetting(setting: string | undefined): { path?: string; function: string } | undefined {
  const text = setting?.trim();
  if (!text) return undefined;
  const colon = text.lastIndexOf(':');
  // A Windows drive letter ("C:\…") is not a separator: the function name comes after the last colon.
  const fn = colon >= 0 ? text.slice(colon + 1) : text;
  if (!/^[A-Za-z_][A-Za-z0-9_]*$/.test(fn)) return undefined;
  return colon > 0 ? { path: text.slice(0, colon), function: fn } : { function: fn };
}

/**
 * With an entry function: its top-level `def`. Otherwise: a method `final_reward` of a class that also has `guess`
 * (the WordleGame convention), preferring the class named WordleGame.
 */
export function findReward(text: string, entryFunction?: string): RewardLocation | undefined {
  const lines = text.split(/\r?\n/);
  if (entryFunction) {
    const def = new RegExp(`^(?:async\\s+)?def\\s+${entryFunction}\\s*\\(`);
    const line = lines.findIndex((l) => def.test(l));
    return line >= 0 ? { line, convention: 'function', name: entryFunction } : undefined;
  }
  const found: { line: number; className: string }[] = [];
  let className: string | undefined;
  let hasGuess = false;
  let rewardLine = -1;
  const close = () => {
    if (className && hasGuess && rewardLine >= 0) found.push({ line: rewardLine, className });
  };
  for (let i = 0; i < lines.length; i++) {
    const line = lines[i];
    const cls = /^class\s+([A-Za-z_]\w*)/.exec(line);
    if (cls || (/^\S/.test(line) && !line.startsWith('#') && !line.startsWith('@'))) {
      close();
      [className, hasGuess, rewardLine] = [cls?.[1], false, -1];
      continue;
    }
    if (!className) continue;
    if (/^\s+(?:async\s+)?def\s+guess\s*\(/.test(line)) hasGuess = true;
    if (/^\s+(?:async\s+)?def\s+final_reward\s*\(/.test(line)) rewardLine = i;
  }
  close();
  const best = found.find((f) => f.className === 'WordleGame') ?? found[0];
  return best && { line: best.line, convention: 'class', name: 'final_reward' };
}

/** 0-based line of the function or class a scenario file scores, from the text alone; undefined when absent. */
export function findScoredDefinition(
  text: string,
  spec: { form: 'function'; function: string } | { form: 'class'; class: string },
): number | undefined {
  const name = spec.form === 'function' ? spec.function : spec.class;
  const pattern = spec.form === 'function' ? new RegExp(`^(?:async\\s+)?def\\s+${name}\\s*\\(`) : new RegExp(`^class\\s+${name}\\b`);
  const line = text.split(/\r?\n/).findIndex((l) => pattern.test(l));
  return line >= 0 ? line : undefined;
}

/** Character offset of the key a problem path names (`scenarios.ideal.tool_calls.0` → `"tool_calls"`), else of `"ideal"`, else 0. */
export function offsetOfPath(text: string, path: string): number {
  const keys = path.split('.').filter((k) => k && !/^\d+$/.test(k));
  let from = 0;
  let found = 0;
  for (const key of keys) {
    const at = text.indexOf(JSON.stringify(key), from);
    if (at < 0) break;
    found = from = at;
  }
  return found;
}
