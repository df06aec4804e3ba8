// Run health in the real VS Code: the Jobs view's rows of the emulator's seeded us-west-2 jobs show each finding at its
// step (warning icon, description, tooltip), and a healthy seeded job shows none.
import assert from 'node:assert/strict';
import * as vscode from 'vscode';
import { runner } from './workspace';
import { ceiling } from '../lib/ceiling';

const WEST = 'us-west-2';
const RUNTIME = 'arn:aws:bedrock-agentcore:us-west-2:111122223333:runtime/wordle_agent-West123456';
// The seeded jobs and steps of src/emulator/seedHealth.ts (the host suite reads the product only through VS Code).
const HEALTH_JOBS: Record<string, { job: string; step: number }> = {
  truncation: { job: 'wordle-grpo-responses-cut', step: 12 },
  'no-signal': { job: 'wordle-grpo-no-signal', step: 9 },
  collapse: { job: 'wordle-grpo-collapse', step: 14 },
  overfitting: { job: 'wordle-grpo-reward-hacked', step: 20 },
  'failing-rollouts': { job: 'wordle-grpo-agent-errors', step: 16 },
  stalled: { job: 'wordle-grpo-stalled', step: 8 },
};

interface JobHealth {
  report?: { findings: { kind: string; severity: string; step: number; sentence: string }[]; notChecked: { kind: string }[] };
  description?: string;
  tooltip?: string;
  commands?: string[];
  icon?: string;
}

describe('run health in the Jobs view', function () {
  this.timeout(ceiling(180_000));
  const config = () => vscode.workspace.getConfiguration('mtrl.aws');
  let saved: string[] | undefined;

  before(async () => {
    assert.ok(runner().config?.emulatorUrl, 'the driver started no emulator: these tests need `mtrl emulator`');
    await vscode.extensions.getExtension('mtrl.mtrl-workbench')!.activate();
    saved = config().inspect<string[]>('regions')?.globalValue;
    await config().update('regions', ['us-east-1', WEST], vscode.ConfigurationTarget.Global);
    const listed = await vscode.commands.executeCommand<{ region: string; jobs: { jobName: string }[] }[]>('mtrl.refreshJobs');
    const west = listed.filter((r) => r.region === WEST).flatMap((r) => r.jobs.map((j) => j.jobName));
    assert.ok(
      Object.values(HEALTH_JOBS).every((h) => west.includes(h.job)),
      `us-west-2 lists ${west.join(', ')}`,
    );
  });

  after(() => config().update('regions', saved, vscode.ConfigurationTarget.Global));

  for (const [kind, seeded] of Object.entries(HEALTH_JOBS)) {
    it(`shows ${kind} at step ${seeded.step} on the row of ${seeded.job}: warning icon, description and tooltip`, async () => {
      const row = await vscode.commands.executeCommand<JobHealth>('mtrl.getJobHealth', {
        jobName: seeded.job,
        category: 'AgentRFT',
        region: WEST,
      });
      assert.ok(row?.report, `no health report for ${seeded.job}`);
      assert.deepEqual(
        row.report.findings.map((f) => [f.kind, f.severity, f.step]),
        [[kind, 'warning', seeded.step]],
      );
      assert.equal(row.icon, 'warning');
      assert.ok(row.description?.startsWith(`${kind} at step ${seeded.step} · `), row.description);
      assert.ok(row.tooltip?.includes(row.report.findings[0].sentence), row.tooltip);
      assert.match(row.tooltip ?? '', /`mtrl\.health\.\w+`/, 'the tooltip names the threshold setting crossed');
      if (kind === 'failing-rollouts') {
        // The agent's logs and the smoke test one click away, as links the tooltip may run.
        const smoke = `command:mtrl.smokeTestRuntime?${encodeURIComponent(JSON.stringify([{ runtimeArn: RUNTIME }]))}`;
        assert.ok(row.tooltip?.includes(smoke), row.tooltip);
        assert.ok(row.tooltip?.includes('command:mtrl.openJobLogs?'), row.tooltip);
        assert.deepEqual(
          ['mtrl.openJobLogs', 'mtrl.smokeTestRuntime'].filter((c) => !row.commands?.includes(c)),
          [],
          'the tooltip does not enable its links',
        );
      }
    });
  }

  it("shows no warning on the healthy seeded training jobs: completed, running, the refund desk and the real run's replay", async () => {
    const healthy = [
      'wordle-gptoss20b-grpo-100steps',
      'wordle-gptoss20b-grpo-lr-sweep',
      'refund-desk-gptoss20b-grpo-10steps',
      'openai-reasoning-gpt-oss-20b-mtrl-20261002040558',
    ];
    for (const jobName of healthy) {
      const row = await vscode.commands.executeCommand<JobHealth>('mtrl.getJobHealth', {
        jobName,
        category: 'AgentRFT',
        region: 'us-east-1',
      });
      assert.ok(row?.report, `no health report for ${jobName}`);
      assert.deepEqual(row.report.findings, [], jobName);
      assert.notEqual(row.icon, 'warning', jobName);
    }
  });
});
