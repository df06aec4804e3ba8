// The metrics view in the real VS Code against the emulator's MLflow API: Show Metrics from a Jobs-view node draws the
// seeded run's curves (points counted against `mtrl metrics --json`), two selected jobs overlaid, live refresh on the
// running job, and a reward-curve step opening the replay board at that step.
import assert from 'node:assert/strict';
import { execFile } from 'node:child_process';
import { readFileSync, rmSync } from 'node:fs';
import path from 'node:path';
import { promisify } from 'node:util';
import * as vscode from 'vscode';
import { ceiling, runner, workspaceFile } from './workspace';

const REGION = 'us-east-1';
const COMPLETED = 'wordle-gptoss20b-grpo-100steps';
const RUNNING = 'wordle-gptoss20b-grpo-lr-sweep';
const REFUND = 'refund-desk-gptoss20b-grpo-10steps';

interface MetricsView {
  jobs: string[];
  drawn?: Record<string, number>;
}

interface ReplayView {
  source: { kind: string; jobName?: string };
  view?: { status: string; selectedGroup?: string; groups: number };
}

/** Polls a test command until `accept` likes what it returns. */
async function until<T>(command: string, accept: (v: T | undefined) => boolean, what: string, timeoutMs: number): Promise<T> {
  const deadline = Date.now() + ceiling(timeoutMs);
  let last: T | undefined;
  while (Date.now() < deadline) {
    last = await vscode.commands.executeCommand<T | undefined>(command);
    if (accept(last)) return last as T;
    await new Promise((resolve) => setTimeout(resolve, 250));
  }
  assert.fail(`${what} never happened; last report: ${JSON.stringify(last)}`);
}

const drew = (jobs: string[]) => (v: MetricsView | undefined) =>
  !!v?.drawn && jobs.every((j) => v.jobs.includes(j)) && v.jobs.length === jobs.length && (v.drawn['Reward per step'] ?? 0) > 0;

/** The packaged CLI (`mtrl …`) against the emulator, its standard output. */
async function cli(...args: string[]): Promise<string> {
  const file = path.join(vscode.extensions.getExtension('mtrl.mtrl-workbench')!.extensionPath, 'dist', 'cli.js');
  const env = { ...process.env, AWS_ACCESS_KEY_ID: 'test', AWS_SECRET_ACCESS_KEY: 'test', ELECTRON_RUN_AS_NODE: '1' };
  const where = ['--endpoint', runner().config!.emulatorUrl!, '--region', REGION];
  const { stdout } = await promisify(execFile)(process.execPath, [file, ...args, ...where], { env, maxBuffer: 16 * 1024 * 1024 });
  return stdout;
}

/** The model a report file embeds (its `mtrl-initial` script), as the page reads it. */
function embedded(html: string): { counts: string; curves?: { job: { name: string }; series: Record<string, { steps: number[] }> }[] } {
  const json = /<script type="application\/json" id="mtrl-initial">([^<]*)<\/script>/.exec(html)?.[1];
  assert.ok(json, 'the file embeds no model');
  return JSON.parse(json);
}

/** The run's history as the packaged CLI reads it (`mtrl metrics --json`): an independent count of the points. */
async function history(job: string, keys: string[]): Promise<Record<string, number>> {
  const stdout = await cli('metrics', job, '--json', '--keys', keys.join(','));
  const steps = (JSON.parse(stdout) as { steps: Record<string, number>[] }).steps;
  return Object.fromEntries(keys.map((k) => [k, steps.filter((row) => typeof row[k] === 'number').length]));
}

describe('metrics view', function () {
  // The first load waits for the emulator to have played the seeded job's 102,400 rollouts (it starts before VS Code).
  this.timeout(ceiling(300_000));

  before(async () => {
    assert.ok(runner().config?.emulatorUrl, 'the driver started no emulator: these tests need `mtrl emulator`');
    await vscode.extensions.getExtension('mtrl.mtrl-workbench')!.activate();
    await vscode.commands.executeCommand('mtrl.jobs.focus');
    await vscode.commands.executeCommand('mtrl.refreshJobs');
  });
  afterEach(async () => {
    await vscode.commands.executeCommand('workbench.action.closeAllEditors');
  });

  it('Show Metrics on a Jobs-view node draws every point of the run’s history', async () => {
    const node = await vscode.commands.executeCommand('mtrl.revealJob', { jobName: COMPLETED, category: 'AgentRFT', region: REGION });
    assert.ok(node, 'mtrl.revealJob found no node');
    await vscode.commands.executeCommand('mtrl.showMetrics', node);
    const view = await until<MetricsView>('mtrl.getMetricsView', drew([COMPLETED]), 'drawing the completed job', 240_000);
    const keys = ['rollout/reward/mean', 'val/reward/mean', 'val/reward/pass_at_1', 'rollout/turns/mean', 'timing_s/step'];
    const counts = await history(COMPLETED, keys);
    assert.equal(counts['rollout/reward/mean'], 100, 'the seeded job logged 100 steps');
    // The reward chart draws each step twice: the raw value and its moving average.
    assert.equal(view.drawn!['Reward per step'], 2 * counts['rollout/reward/mean']);
    assert.equal(view.drawn!['Validation'], counts['val/reward/mean'] + counts['val/reward/pass_at_1']);
    assert.equal(view.drawn!['Turns per rollout'], counts['rollout/turns/mean']);
    assert.equal(view.drawn!['Step time (s)'], counts['timing_s/step']);
  });

  it('overlays the jobs selected in the Jobs view', async () => {
    const nodes = [
      await vscode.commands.executeCommand('mtrl.revealJob', { jobName: COMPLETED, category: 'AgentRFT', region: REGION }),
      await vscode.commands.executeCommand('mtrl.revealJob', { jobName: RUNNING, category: 'AgentRFT', region: REGION }),
    ];
    await vscode.commands.executeCommand('mtrl.showMetrics', nodes[0], nodes);
    const view = await until<MetricsView>('mtrl.getMetricsView', drew([COMPLETED, RUNNING]), 'drawing both jobs', 120_000);
    const running = await history(RUNNING, ['rollout/reward/mean']);
    // Both lines are on the reward chart: 100 steps of one, the running job's steps so far (it may have finished one more since).
    const points = view.drawn!['Reward per step'];
    assert.ok(
      points >= 2 * (100 + running['rollout/reward/mean'] - 1) && points <= 2 * (100 + running['rollout/reward/mean']),
      `${points}`,
    );
  });

  it('refreshes the running job’s curves while it trains', async () => {
    const settings = vscode.workspace.getConfiguration('mtrl.jobs');
    await settings.update('refreshSeconds', 5, vscode.ConfigurationTarget.Workspace);
    try {
      await vscode.commands.executeCommand('mtrl.showMetrics', { jobName: RUNNING, category: 'AgentRFT', region: REGION });
      const first = await until<MetricsView>('mtrl.getMetricsView', drew([RUNNING]), 'drawing the running job', 120_000);
      const before = first.drawn!['Reward per step'];
      // About one step every 7.5 s at the emulator's default speed: the view's 5-s refresh must pick it up.
      const later = await until<MetricsView>(
        'mtrl.getMetricsView',
        (v) => (v?.drawn?.['Reward per step'] ?? 0) > before,
        'a new step appearing',
        90_000,
      );
      assert.equal((later.drawn!['Reward per step'] - before) % 2, 0, 'raw and average grow together');
    } finally {
      await settings.update('refreshSeconds', undefined, vscode.ConfigurationTarget.Workspace);
    }
  });

  it('a step picked on the reward curve opens the replay board at that step, and moves an open board to the next pick', async () => {
    // What the view sends when a point of the reward curve is clicked (the UI check clicks the canvas itself).
    const at = (step: number) =>
      vscode.commands.executeCommand('mtrl.openRollouts', { jobName: RUNNING, category: 'AgentRFT', region: REGION, step });
    const shown = (step: number) => (v: ReplayView | undefined) =>
      v?.source.jobName === RUNNING && v.view?.status === 'ready' && (v.view.selectedGroup ?? '').endsWith(`· step ${step}`);
    await at(3);
    await until<ReplayView>('mtrl.getReplayView', shown(3), 'the board at step 3', 120_000);
    await at(5);
    const moved = await until<ReplayView>('mtrl.getReplayView', shown(5), 'the open board moving to step 5', 60_000);
    assert.ok(moved.view!.groups > 0);
  });

  it("Export Report… writes the open view: the job's curves, and its rollouts counted as `mtrl report --job` counts them", async () => {
    await vscode.commands.executeCommand('mtrl.showMetrics', { jobName: REFUND, category: 'AgentRFT', region: REGION });
    await until<MetricsView>('mtrl.getMetricsView', drew([REFUND]), 'drawing the refund job', 120_000);
    const to = workspaceFile('metrics-report.html');
    const cliFile = workspaceFile('metrics-report-cli.html');
    rmSync(to.fsPath, { force: true });
    const written = await vscode.commands.executeCommand<vscode.Uri | undefined>('mtrl.exportMetricsReport', { to });
    assert.equal(written?.fsPath, to.fsPath);
    const html = readFileSync(to.fsPath, 'utf8');
    assert.match(html, /<meta http-equiv="Content-Security-Policy" content="default-src &#39;none&#39;;/);
    assert.doesNotMatch(html, /<script[^>]+src=|<link[^>]+href="https?:/);
    const model = embedded(html);
    const terminal = await cli('report', '--job', REFUND, '--html', cliFile.fsPath);
    const counts = / KB\): (.+?) from /.exec(terminal)?.[1];
    assert.ok(counts && /^[1-9]/.test(counts), `mtrl report --job read no rollouts: ${terminal}`);
    assert.equal(model.counts, counts);
    const reward = await history(REFUND, ['rollout/reward/mean']);
    assert.deepEqual(
      model.curves?.map((c) => [c.job.name, c.series['rollout/reward/mean']?.steps.length]),
      [[REFUND, reward['rollout/reward/mean']]],
    );
    assert.ok(reward['rollout/reward/mean'] > 0, 'the seeded job logged its reward');
    rmSync(to.fsPath);
    rmSync(cliFile.fsPath, { force: true });
  });
});
