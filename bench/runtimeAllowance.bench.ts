// Issue 46's reproductions, end to end: the built `mtrl signal --local` against policy stand-ins and agents that hold
// the local job runtime's one allowance (128 MB) under pressure; each held to the bounds of bench/lib/reproductions.ts
// (≤ 600 MB for the CLI and every process it starts, a sentence, its timeout + 10 s, nothing left behind).
import { mkdtempSync, readdirSync, rmSync, statSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { againstPolicy, runReproductions, type Case } from './lib/reproductions';

const MB = 2 ** 20;
const dir = mkdtempSync(path.join(tmpdir(), 'mtrl-bench-allowance-'));
// What is kept of one rollout stops at 16 MB; the rest of its line is JSON around it.
const KEPT_BOUND = 17 * MB;
const ALLOWANCE = /would pass the local check's allowance of 128 MB/;
const manyCallsStore = path.join(dir, 'store-many-calls');

/** The largest rollouts file a check kept in `store`. */
function largestKept(store: string): number {
  const rollouts = path.join(store, 'rollouts');
  const sizes = readdirSync(rollouts).map((f) => statSync(path.join(rollouts, f)).size);
  return Math.max(0, ...sizes);
}

const cases: Case[] = [
  {
    what: 'a policy whose streams never end (64 MB + 1 byte each), 4 rollouts at once',
    timeoutS: 60,
    sentence: new RegExp(`${ALLOWANCE.source}|cuts answers at 64 MB`),
    setup: againstPolicy(dir, 'streaming_agent.py', { kind: 'endless', bytes: 64 * MB + 1 }, { groupSize: 4 }),
  },
  {
    what: 'a policy answering 60 MB per call, the agent making 6 calls',
    // 360 MB through the runtime and into Python's json: 10 s of CPU, a minute of wall time on a loaded machine.
    timeoutS: 180,
    // The rollout plays to its reward; its kept transcript is bounded (16 MB), not 361 MB in the store.
    sentence: /solved: 1 \(reward/,
    setup: againstPolicy(dir, 'many_calls_agent.py', { kind: 'answer', bytes: 60 * MB }, { store: manyCallsStore, timeoutS: 180 }),
    after: () => {
      const kept = largestKept(manyCallsStore);
      return {
        figure: `rollouts file kept in the store: ${(kept / 1024).toFixed(1)} KB (≤ ${KEPT_BOUND / MB} MB)`,
        ...(kept > KEPT_BOUND ? { fault: `the store kept ${(kept / MB).toFixed(1)} MB of one rollout` } : {}),
      };
    },
  },
  {
    what: 'four 63 MB policy errors at once (the default concurrency)',
    timeoutS: 60,
    sentence: new RegExp(`${ALLOWANCE.source}|the policy refused their model calls`),
    setup: againstPolicy(dir, 'wordle_agent.py', { kind: 'error', status: 500, bytes: 63 * MB }, { groupSize: 4 }),
  },
  {
    what: '30 request bodies of 15 MB at once from one agent',
    timeoutS: 60,
    // Past the allowance when they arrive together; on a loaded machine they may arrive one after another and all play.
    sentence: new RegExp(`${ALLOWANCE.source}|solved: 1 \\(reward`),
    setup: againstPolicy(dir, 'big_bodies_agent.py', { kind: 'answer', bytes: 1024 }),
  },
];

runReproductions(cases)
  .finally(() => rmSync(dir, { recursive: true, force: true }))
  .catch((error: Error) => {
    console.error(error);
    process.exitCode = 1;
  });
