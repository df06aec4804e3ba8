// The baseline a user would write who knows the layout: list the folder once, then read and JSON.parse each folder's
// `traces.json` (`<id>/traces.json`, or `<id>/artifacts/traces.json` when told `artifacts`), nothing kept.
const { readdirSync, readFileSync } = require('node:fs');
const path = require('node:path');

const [dir, layout] = process.argv.slice(2);
const inner = layout === 'artifacts' ? `${path.sep}artifacts${path.sep}traces.json` : `${path.sep}traces.json`;
let spans = 0;
for (const name of readdirSync(dir)) spans += JSON.parse(readFileSync(dir + path.sep + name + inner, 'utf8')).spans.length;
process.stdout.write(`${spans}\n`);
