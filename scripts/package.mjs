// Production build, then a .vsix of exactly what .vscodeignore allows, then the size of each bundle.
import { execFileSync } from 'node:child_process';
import { readFileSync, readdirSync, rmSync, statSync } from 'node:fs';
import path from 'node:path';

const root = path.resolve(path.dirname(new URL(import.meta.url).pathname), '..');
const { version } = JSON.parse(readFileSync(path.join(root, 'package.json'), 'utf8'));
const run = (cmd, args) => execFileSync(cmd, args, { cwd: root, stdio: 'inherit' });

rmSync(path.join(root, 'dist'), { recursive: true, force: true });
run(process.execPath, ['scripts/build.mjs', '--production']);
const vsix = `dist/mtrl-workbench-${version}.vsix`;
// Relative links (docs/…) stay relative: the package has no repository URL to rewrite them against.
run(process.execPath, [
  'node_modules/@vscode/vsce/vsce',
  'package',
  '--no-dependencies',
  '--skip-license',
  '--no-rewrite-relative-links',
  '-o',
  vsix,
]);

const kb = (file) => `${(statSync(path.join(root, file)).size / 1024).toFixed(1)} KB`;
const bundles = [
  ...readdirSync(path.join(root, 'dist'))
    .filter((f) => f.endsWith('.js'))
    .map((f) => `dist/${f}`),
  ...readdirSync(path.join(root, 'dist/webview')).map((f) => `dist/webview/${f}`),
  vsix,
];
for (const file of bundles) console.log(`${file.padEnd(44)} ${kb(file).padStart(10)}`);
