// `npm run bench`: every benchmark under bench/, each printing its figures and a ratio to a baseline measured in the same run.
// One failing benchmark does not hide the others; the exit code says whether any failed.
import { spawnSync } from 'node:child_process';
import { existsSync, readFileSync, readdirSync } from 'node:fs';
import path from 'node:path';

const root = path.resolve(path.dirname(new URL(import.meta.url).pathname), '..');
// Figures are of the Node users run (package.json engines): Node 20 reads files slower, which flattered the ratios to a
// bare read (trace folders 1.46x CPU on Node 20 against 1.7-1.8x on Node 22 for the same commit).
const supported = JSON.parse(readFileSync(path.join(root, 'package.json'), 'utf8')).engines.node;
const lowest = Number(/\d+/.exec(supported)[0]);
if (Number(process.versions.node.split('.')[0]) < lowest) {
  console.error(
    `npm run bench: this is Node ${process.version}; the figures are of Node ${supported} (package.json engines). Run it with that Node.`,
  );
  process.exit(2);
}
console.log(`node ${process.version}`);
const dir = path.join(root, 'bench');
const only = process.argv[2];
const benches = (
  existsSync(dir)
    ? readdirSync(dir)
        .filter((f) => f.endsWith('.bench.ts'))
        .sort()
    : []
).filter((f) => !only || f.startsWith(only));
if (!benches.length) console.log('no benchmarks');
const failed = [];
for (const file of benches) {
  console.log(`\n== ${file}`);
  const { status } = spawnSync(process.execPath, ['--import', 'tsx', path.join(dir, file)], { cwd: root, stdio: 'inherit' });
  if (status !== 0) failed.push(file);
}
if (failed.length) {
  console.error(`\nbenchmarks that failed: ${failed.join(', ')}`);
  process.exitCode = 1;
}
