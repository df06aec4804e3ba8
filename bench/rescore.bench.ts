// What-if re-scoring: 1,024 recorded support rollouts through the class-form environment in one python3 run, against
// the baseline the issue names (a bare `python3 -c pass` per rollout) measured in the same run. Target: ≤ 10 s.
import { execFileSync } from 'node:child_process';
import path from 'node:path';
import type { Transcript } from '../src/core/transcript/model';
import { rescoreTranscripts } from '../src/services/rewardScenarios';

const root = path.resolve(__dirname, '..');
const script = path.join(root, 'src/python/transcript_reward.py');
const env = path.join(root, 'test/fixtures/workspace/reward-scenarios/support_env.py');
const ACTIONS = ['check_outage', 'inspect_router_lights', 'check_account_config', 'reprovision_account', 'close_ticket'];
const ROLLOUTS = 1024;
const GROUP = 4;

/** Seeded rollouts of 1–6 calls each, four to a task, with a recorded reward to compare with. */
function rollouts(): Transcript[] {
  let seed = 7;
  const next = () => (seed = (seed * 1103515245 + 12345) % 2 ** 31) / 2 ** 31;
  return Array.from({ length: ROLLOUTS }, (_, i) => ({
    id: `r${i}`,
    groupKey: `task-${Math.floor(i / GROUP)}`,
    reward: Math.floor(next() * 5) / 4,
    status: 'completed',
    source: 'trace',
    task: { prompt: `ticket ${Math.floor(i / GROUP)}` },
    turns: Array.from({ length: 1 + Math.floor(next() * 6) }, (_, t) => ({
      thinking: 'x'.repeat(400),
      toolCalls: [
        { name: 'take_support_action', arguments: JSON.stringify({ action: ACTIONS[(t + Math.floor(next() * 2)) % ACTIONS.length] }) },
      ],
    })),
  }));
}

async function main() {
  const spec = {
    form: 'class' as const,
    file: 'support_env.py',
    class: 'SupportGame',
    init: { ticket: 'prompt' },
    tools: { take_support_action: { method: 'apply', arguments: ['action'] } },
    score: 'reward',
  };
  const transcripts = rollouts();
  const bareRuns = 20;
  let started = performance.now();
  for (let i = 0; i < bareRuns; i++) execFileSync('python3', ['-c', 'pass']);
  const bare = (performance.now() - started) / bareRuns;
  const samples: number[] = [];
  for (let run = 0; run < 3; run++) {
    started = performance.now();
    const outcome = await rescoreTranscripts(env, spec, transcripts, { python: 'python3', script, timeoutMs: 60_000 });
    samples.push(performance.now() - started);
    if (!('report' in outcome)) throw new Error(outcome.failure.message);
    if (run === 0) console.log(`  ${outcome.report.compared} compared, ${outcome.report.unreplayable.length} could not be re-scored`);
  }
  const ms = [...samples].sort((a, b) => a - b)[1];
  const perRollout = bare * ROLLOUTS;
  console.log(`  python3 -c pass                     ${bare.toFixed(1).padStart(8)} ms`);
  console.log(`  baseline: python3 -c pass × ${ROLLOUTS}    ${perRollout.toFixed(0).padStart(8)} ms`);
  console.log(
    `  re-score ${ROLLOUTS} rollouts (median of 3) ${ms.toFixed(0).padStart(8)} ms   ratio ${(ms / perRollout).toFixed(3)}   ${ms <= 10_000 ? '≤' : '>'} 10 s`,
  );
}

void main();
