// Reward preview latency (the Wordle pack's scenarios + python3 scorer + expectations) as a ratio to a bare `python3 -c pass`, same run.
import { execFileSync } from 'node:child_process';
import { readFileSync } from 'node:fs';
import path from 'node:path';
import { canonicalGames } from '../src/core/environments/wordle/rewardGames';
import { WORDS } from '../src/core/environments/wordle/words';
import { packScenarioFile, previewScenarios } from '../src/services/rewardScenarios';

const root = path.resolve(__dirname, '..');
const script = path.join(root, 'src/python/transcript_reward.py');
const RUNS = 15;

function median(values: number[]): number {
  const sorted = [...values].sort((a, b) => a - b);
  return sorted[Math.floor(sorted.length / 2)];
}

async function time(run: () => unknown): Promise<number> {
  const samples: number[] = [];
  await run(); // warm the OS file cache and the interpreter's .pyc files
  for (let i = 0; i < RUNS; i++) {
    const started = performance.now();
    await run();
    samples.push(performance.now() - started);
  }
  return median(samples);
}

async function main() {
  const bare = await time(() => execFileSync('python3', ['-c', 'pass']));
  const games = await time(() => canonicalGames('crane', [...WORDS]));
  const rows: [string, number][] = [
    ['python3 -c pass (baseline)', bare],
    ['choosing the canonical games (uncached)', games],
  ];
  for (const fixture of ['final_design.py', 'stub_imports.py']) {
    const file = path.join(root, 'test/fixtures/reward', fixture);
    const ms = await time(async () => {
      const offered = packScenarioFile(file, readFileSync(file, 'utf8'))!;
      const { result } = await previewScenarios(offered.path, { python: 'python3', script, text: offered.text });
      if (!result.ok) throw new Error(result.message);
    });
    rows.push([`preview of ${fixture}`, ms]);
  }
  console.log(`median of ${RUNS} runs each`);
  for (const [name, ms] of rows) console.log(`  ${name.padEnd(40)} ${ms.toFixed(1).padStart(7)} ms   ratio ${(ms / bare).toFixed(2)}`);
}

void main();
