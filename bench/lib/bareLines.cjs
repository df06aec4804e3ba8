// The plainest read of a JSON Lines file: streamed line by line, each line JSON.parse'd and kept (as the board keeps every rollout whole).
const { createReadStream } = require('node:fs');
const readline = require('node:readline');

(async () => {
  const kept = [];
  for await (const line of readline.createInterface({ input: createReadStream(process.argv[2]), crlfDelay: Infinity }))
    if (line) kept.push(JSON.parse(line));
  console.log(JSON.stringify({ rollouts: kept.length }));
})();
