// `npm run bench`: every benchmark under bench/, each printing its figures and a ratio to a baseline measured in the same run.
import { execFileSync } from 'node:child_process';
import { existsSync, readdirSync } from 'node:fs';
import path from 'node:path';

const root = path.resolve(path.dirname(new URL(import.meta.url).pathname), '..');
const dir = path.join(root, 'bench');
const benches = existsSync(dir) ? readdirSync(dir).filter((f) => f.endsWith('.bench.ts')).sort() : [];
if (!benches.length) console.log('no benchmarks yet');
for (const file of benches) {
  console.log(`\n== ${file}`);
  execFileSync(process.execPath, ['--import', 'tsx', path.join(dir, file)], { cwd: root, stdio: 'inherit' });
}
