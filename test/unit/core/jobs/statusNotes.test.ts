import { strict as assert } from 'node:assert';
import { DEFAULT_PRICING } from '../../../../src/core/jobs/pricing';
import { progressOf } from '../../../../src/core/jobs/status';
import { statusNotes } from '../../../../src/core/jobs/statusNotes';
import type { JobDetails } from '../../../../src/core/jobs/job';
import { jobFacts } from '../../../../src/core/jobs/summary';
import { jobTooltip } from '../../../../src/core/jobs/tooltip';

const at = (minutes: number) => new Date(Date.UTC(2026, 9, 2, 4, minutes));
const now = at(40);

function job(messages: [number, string, string][], status = 'InProgress', output: Record<string, unknown> = {}): JobDetails {
  return {
    name: 'openai-reasoning-gpt-oss-20b-mtrl-20261002040558',
    arn: 'arn:aws:sagemaker:us-west-2:1:job/AgentRFT/x',
    category: 'AgentRFT',
    region: 'us-west-2',
    status,
    created: at(0),
    transitions: messages.map(([m, Status, StatusMessage]) => ({ Status, StatusMessage, StartTime: at(m) })),
    document: { ServiceOutput: output },
  };
}

describe('status messages as a real run words them', () => {
  it('a job waiting for capacity says so with the time waited, first in its row', () => {
    const waiting = job([
      [0, 'Starting', 'Job created'],
      [28, 'Starting', 'Job waiting for capacity'],
    ]);
    assert.equal(statusNotes(waiting.transitions, 'InProgress', now).waitingMs, 12 * 60_000);
    assert.equal(jobFacts(waiting, DEFAULT_PRICING, now)[0].text, 'waiting for capacity 12m 00s');
  });

  it('counts restarts, shows the step phase beside the step, and never more than 100 %', () => {
    const output = {
      ProgressInfo: { BatchSize: 32, CurrentStep: 11, MaxSteps: 10, StepsPerEpoch: 2 },
      RolloutInfo: { Total: 1280, Completed: 1511 },
    };
    const restarted = job(
      [
        [0, 'Starting', 'Job created'],
        [10, 'Training', 'Restarting job due to retriable internal error'],
        [20, 'Training', 'Training in progress, step 10/10: CheckpointStart'],
      ],
      'InProgress',
      output,
    );
    assert.deepEqual(statusNotes(restarted.transitions, 'InProgress', now), {
      waitingMs: undefined,
      restarts: 1,
      phase: 'CheckpointStart',
    });
    const facts = jobFacts(restarted, DEFAULT_PRICING, now).map((f) => f.text);
    assert.equal(facts[0], '10/10 CheckpointStart');
    assert.ok(facts.includes('restarted 1×'), facts.join(' · '));
    assert.deepEqual(progressOf(output.ProgressInfo), { step: 10, totalSteps: 10 });
    const tip = jobTooltip(restarted, DEFAULT_PRICING, now);
    assert.match(tip, /\| Rollouts \| 1,280 \/ 1,280 \(1,511 run: a restart re-ran some\) \|/);
    assert.match(tip, /\| Status \| restarted 1× · step phase CheckpointStart \|/);
  });
});
