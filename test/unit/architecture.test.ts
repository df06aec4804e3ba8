import { strict as assert } from 'node:assert';
import { readdirSync, readFileSync, statSync } from 'node:fs';
import path from 'node:path';

const root = path.resolve(__dirname, '../..');

function sourceFiles(dir: string): string[] {
  return readdirSync(dir).flatMap((name) => {
    const full = path.join(dir, name);
    return statSync(full).isDirectory() ? sourceFiles(full) : /\.(ts|js|mjs)$/.test(name) ? [full] : [];
  });
}

const IMPORT = /(?:import|export)\s[^'"]*?from\s*['"]([^'"]+)['"]|import\(\s*['"]([^'"]+)['"]\s*\)|require\(\s*['"]([^'"]+)['"]\s*\)/g;

function importsOf(file: string): string[] {
  const text = readFileSync(file, 'utf8');
  return [...text.matchAll(IMPORT)].map((m) => m[1] ?? m[2] ?? m[3]);
}

/** Files in `dir` that import something the layer must not see. */
function violations(dir: string, forbidden: (resolved: string, spec: string) => boolean): string[] {
  return sourceFiles(dir).flatMap((file) =>
    importsOf(file)
      .filter((spec) => forbidden(spec.startsWith('.') ? path.resolve(path.dirname(file), spec) : spec, spec))
      .map((spec) => `${path.relative(root, file)} imports '${spec}'`),
  );
}

describe('architecture', () => {
  const src = path.join(root, 'src');
  const inside = (resolved: string, folder: string) => resolved.startsWith(path.join(src, folder) + path.sep) || resolved === path.join(src, folder);

  it('src/core imports neither vscode nor src/aws nor src/features', () => {
    const found = violations(path.join(src, 'core'), (resolved, spec) => spec === 'vscode' || inside(resolved, 'aws') || inside(resolved, 'features'));
    assert.deepEqual(found, []);
  });

  it('src/aws imports neither vscode nor src/features', () => {
    const found = violations(path.join(src, 'aws'), (resolved, spec) => spec === 'vscode' || inside(resolved, 'features'));
    assert.deepEqual(found, []);
  });

  it('the guard itself sees a forbidden import', () => {
    assert.deepEqual(importsOf(__filename).includes('node:fs'), true);
    assert.ok(IMPORT.source.length > 0);
    const sample = "import * as vscode from 'vscode';\nconst x = require('../aws/s3');";
    assert.deepEqual([...sample.matchAll(IMPORT)].map((m) => m[1] ?? m[2] ?? m[3]), ['vscode', '../aws/s3']);
  });
});
