// The baseline a user would write: read every `.json` file under a folder and JSON.parse it, nothing kept.
const { readdirSync, readFileSync } = require('node:fs');
const path = require('node:path');

const dir = process.argv[2];
let spans = 0;
for (const name of readdirSync(dir, { recursive: true })) {
  if (!name.endsWith('.json')) continue;
  spans += JSON.parse(readFileSync(path.join(dir, name), 'utf8')).spans.length;
}
process.stdout.write(`${spans}\n`);
