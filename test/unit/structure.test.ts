import { strict as assert } from 'node:assert';
import { existsSync, readdirSync, readFileSync, statSync } from 'node:fs';
import path from 'node:path';

const root = path.resolve(__dirname, '../..');
const MAX_LINES = 300;

function files(dir: string, pattern: RegExp): string[] {
  return readdirSync(dir).flatMap((name) => {
    const full = path.join(dir, name);
    return statSync(full).isDirectory() ? files(full, pattern) : pattern.test(name) ? [full] : [];
  });
}

const IMPORT =
  /(?:import|export)\s[^'"]*?from\s*['"](\.[^'"]+)['"]|import\(\s*['"](\.[^'"]+)['"]\s*\)|require\(\s*['"](\.[^'"]+)['"]\s*\)/g;

/** The source file a relative import names, or undefined when it leaves the tree (JSON, assets). */
function resolveImport(from: string, spec: string): string | undefined {
  const base = path.resolve(path.dirname(from), spec);
  return [`${base}.ts`, path.join(base, 'index.ts'), base].find((f) => f.endsWith('.ts') && existsSync(f));
}

/** Every relative import of each source file under src/ and webview/, type-only ones included (they tie files together too). */
function importGraph(): Map<string, string[]> {
  const sources = [...files(path.join(root, 'src'), /\.ts$/), ...files(path.join(root, 'webview'), /\.ts$/)];
  return new Map(
    sources.map((file) => [
      file,
      [...readFileSync(file, 'utf8').matchAll(IMPORT)].flatMap((m) => resolveImport(file, m[1] ?? m[2] ?? m[3]) ?? []),
    ]),
  );
}

/** Each import circle once, as the files around it (Tarjan's strongly connected components of two or more files). */
function circles(graph: Map<string, string[]>): string[][] {
  let next = 0;
  const index = new Map<string, number>();
  const low = new Map<string, number>();
  const stack: string[] = [];
  const found: string[][] = [];
  const visit = (v: string) => {
    index.set(v, next);
    low.set(v, next++);
    stack.push(v);
    for (const w of graph.get(v) ?? []) {
      if (!index.has(w)) {
        visit(w);
        low.set(v, Math.min(low.get(v)!, low.get(w)!));
      } else if (stack.includes(w)) low.set(v, Math.min(low.get(v)!, index.get(w)!));
    }
    if (low.get(v) === index.get(v)) {
      const component: string[] = [];
      let w: string;
      do {
        w = stack.pop()!;
        component.push(path.relative(root, w));
      } while (w !== v);
      if (component.length > 1) found.push(component.sort());
    }
  };
  for (const v of graph.keys()) if (!index.has(v)) visit(v);
  return found;
}

describe('structure', () => {
  it('no import circles in src/ or webview/ (type-only imports count: move the shared type where both can reach it)', () => {
    assert.deepEqual(
      circles(importGraph()).map((c) => c.join(' ↔ ')),
      [],
    );
  });

  it('finds a circle when there is one', () => {
    const [a, b, c] = ['/a.ts', '/b.ts', '/c.ts'];
    assert.deepEqual(
      circles(
        new Map([
          [a, [b]],
          [b, [a, c]],
          [c, []],
        ]),
      ).length,
      1,
    );
  });

  it(`no source file over ${MAX_LINES} lines`, () => {
    const sources = files(path.join(root, 'src'), /\.(ts|py)$/).concat(files(path.join(root, 'webview'), /\.ts$/));
    const long = sources
      .map((file) => ({ file: path.relative(root, file), lines: readFileSync(file, 'utf8').split('\n').length - 1 }))
      .filter((f) => f.lines > MAX_LINES)
      .map((f) => `${f.file}: ${f.lines} lines`);
    assert.deepEqual(long, []);
  });
});
