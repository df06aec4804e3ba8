import assert from 'node:assert/strict';
import type { HealthFinding, HealthKind, HealthReport } from '../../../../src/core/health/findings';
import { healthMarkdown } from '../../../../src/core/health/label';

const RUNTIME = 'arn:aws:bedrock-agentcore:us-west-2:111122223333:runtime/wordle_agent-West123456';
const job = { jobName: 'wordle-grpo-agent-errors', category: 'AgentRFT' as const, region: 'us-west-2' };

function report(kind: HealthKind): HealthReport {
  const finding: HealthFinding = {
    kind,
    severity: 'warning',
    step: 16,
    metric: 'analysis/batch_valid_ratio',
    values: [{ step: 16, value: 0.66 }],
    sentence: 'From step 16, 34 % of the rollouts failed or were invalid.',
    action: "Read the agent's logs.",
    threshold: { setting: 'mtrl.health.failedRolloutShare', value: 0.2, text: 'failed or invalid rollouts ≥ 20 %' },
  };
  return { steps: 30, findings: [finding], notChecked: [{ kind: 'stalled', reason: 'the job is not running' }] };
}

/** The command links of a Markdown text: command id and its decoded argument list. */
function links(markdown: string): [string, unknown][] {
  return [...markdown.matchAll(/\]\(command:([\w.]+)\?([^)]+)\)/g)].map((m) => [m[1], JSON.parse(decodeURIComponent(m[2])) as unknown]);
}

describe('run health in a job tooltip', () => {
  it('names each finding with its threshold setting and action, and what was not checked', () => {
    const text = healthMarkdown(report('failing-rollouts'));
    assert.match(text, /\*\*failing-rollouts at step 16\*\*: From step 16, 34 %/);
    assert.match(text, /`mtrl\.health\.failedRolloutShare` 0\.2\)\. \*What to do\*: Read the agent's logs\./);
    assert.match(text, /Not checked: stalled \(the job is not running\)\./);
  });

  it("failing rollouts: the job's Service logs and a smoke test of its runtime one click away", () => {
    assert.deepEqual(links(healthMarkdown(report('failing-rollouts'), { job, runtimeArn: RUNTIME })), [
      ['mtrl.openJobLogs', [job]],
      ['mtrl.smokeTestRuntime', [{ runtimeArn: RUNTIME }]],
    ]);
    assert.deepEqual(
      links(healthMarkdown(report('failing-rollouts'), { job })),
      [['mtrl.openJobLogs', [job]]],
      'no runtime, no smoke test',
    );
  });

  it('stalled links the Service logs; the other kinds act in the job file, so they link nothing', () => {
    assert.deepEqual(links(healthMarkdown(report('stalled'), { job, runtimeArn: RUNTIME })), [['mtrl.openJobLogs', [job]]]);
    for (const kind of ['truncation', 'no-signal', 'collapse', 'overfitting'] as const)
      assert.deepEqual(links(healthMarkdown(report(kind), { job, runtimeArn: RUNTIME })), [], kind);
  });
});
