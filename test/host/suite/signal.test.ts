// The learning-signal check in the real VS Code: the report of a local rollouts folder, and a training job's launch
// review showing the latest kept check (a cloud check launched on the emulator).
import assert from 'node:assert/strict';
import { readFileSync, rmSync } from 'node:fs';
import * as vscode from 'vscode';
import { ceiling, runner, shownPath, workspaceFile } from './workspace';

interface SignalViewShape {
  source: { kind: string; label: string };
  drawn?: { kind: string; headline?: string; message?: string; rewardBars: number; difficultyBars: number };
}

interface ReviewShape {
  verdict: string;
  signal?: { check?: { key: { dataset: string; runtime: string; reward: string }; status: string; jobName?: string; route: string } };
}

/** Asks the report in front what it drew until `accept` likes it (the page reports each drawing). */
async function signalView(accept: (v: SignalViewShape) => boolean, timeoutMs = 60_000): Promise<SignalViewShape> {
  const deadline = Date.now() + ceiling(timeoutMs);
  let last: SignalViewShape | undefined;
  while (Date.now() < deadline) {
    last = await vscode.commands.executeCommand<SignalViewShape | undefined>('mtrl.getSignalView');
    if (last && accept(last)) return last;
    await new Promise((r) => setTimeout(r, 250));
  }
  assert.fail(`the learning-signal report never got there; last report: ${JSON.stringify(last)}`);
}

describe('learning-signal check', function () {
  this.timeout(ceiling(120_000));

  before(async () => {
    await vscode.extensions.getExtension('mtrl.mtrl-workbench')!.activate();
  });

  it('Check Learning Signal on a local rollouts folder opens the report: 3 of 6 refund tasks have zero advantage', async () => {
    const folder = workspaceFile('signal', 'refund-check');
    await vscode.commands.executeCommand('mtrl.checkLearningSignal', folder);
    const view = await signalView((v) => v.source.kind === 'file' && v.drawn?.kind === 'report');
    // By hand: solved by all 4 rollouts, A-102 by none; A-103…105 split.
    assert.equal(view.drawn!.headline, '50 % of tasks have zero advantage (3 of 6 groups)');
    assert.equal(view.drawn!.difficultyBars, 5);
    assert.ok(view.drawn!.rewardBars > 1, `${view.drawn!.rewardBars} reward bars`);
    assert.equal(view.source.label, shownPath('signal', 'refund-check'));
    const tab = vscode.window.tabGroups.activeTabGroup.activeTab;
    assert.equal(tab?.label, `Learning signal: ${shownPath('signal', 'refund-check')}`);
  });

  it('Export Report… writes the report in front: the check in its words and the 24 rollouts it checked', async () => {
    const folder = workspaceFile('signal', 'refund-check');
    await vscode.commands.executeCommand('mtrl.checkLearningSignal', folder);
    await signalView((v) => v.source.kind === 'file' && v.drawn?.kind === 'report');
    const to = workspaceFile('signal', 'signal-report.html');
    rmSync(to.fsPath, { force: true });
    const written = await vscode.commands.executeCommand<vscode.Uri | undefined>('mtrl.exportSignalReport', { to });
    assert.equal(written?.fsPath, to.fsPath);
    const html = readFileSync(to.fsPath, 'utf8');
    assert.match(html, /<meta http-equiv="Content-Security-Policy" content="default-src &#39;none&#39;;/);
    const json = /<script type="application\/json" id="mtrl-initial">([^<]*)<\/script>/.exec(html)?.[1];
    const model = JSON.parse(json ?? '{}') as { counts?: string; rollouts?: unknown[]; signal?: { headline?: string } };
    // 6 tasks, 4 rollouts each: the same headline the view drew.
    assert.equal(model.counts, '24 rollouts · 6 groups');
    assert.equal(model.rollouts?.length, 24);
    assert.equal(model.signal?.headline, '50 % of tasks have zero advantage (3 of 6 groups)');
    assert.doesNotMatch(html, /<script[^>]+src=|<link[^>]+href="https?:/);
    rmSync(to.fsPath);
  });

  it("an evaluation job from the emulator: its rollouts' report, G per task from its eval_group_size", async () => {
    assert.ok(runner().config?.emulatorUrl, 'the driver started no emulator: this test needs `mtrl emulator`');
    const job = { jobName: 'refund-desk-gptoss20b-base-evaluation', category: 'AgentRFTEvaluation', region: 'us-east-1' };
    await vscode.commands.executeCommand('mtrl.checkLearningSignal', job);
    const view = await signalView((v) => v.source.kind === 'job' && v.drawn !== undefined && v.drawn.kind !== 'reading', 90_000);
    assert.equal(view.drawn!.kind, 'report', JSON.stringify(view));
    assert.match(view.drawn!.headline ?? '', /^\d+ % of tasks have zero advantage \(\d+ of \d+ groups\)$/);
    assert.equal(view.source.label, `evaluation job ${job.jobName}`);
  });

  it('a rollouts file with a reward past the reward rule (1e308) gets the rule as its sentence, no report', async () => {
    const source = new TextDecoder().decode(await vscode.workspace.fs.readFile(workspaceFile('signal', 'refund-check', 'rollouts.log')));
    const lines = source.split('\n').filter(Boolean);
    lines[0] = lines[0].replace('"reward":1,', '"reward":1e308,');
    assert.match(lines[0], /"reward":1e308,/);
    const file = workspaceFile('signal', 'huge-reward.log');
    await vscode.workspace.fs.writeFile(file, new TextEncoder().encode(lines.join('\n') + '\n'));
    await vscode.commands.executeCommand('mtrl.checkLearningSignal', file);
    const view = await signalView((v) => v.source.label === shownPath('signal', 'huge-reward.log') && v.drawn?.kind === 'failed');
    assert.match(view.drawn!.message ?? '', /a reward must be a finite number from -1e9 to 1e9/);
    assert.match(view.drawn!.message ?? '', /refund-t0-r0/, 'the rollout is named');
  });

  it('a folder without rollouts gets a sentence, not an empty report', async () => {
    await vscode.commands.executeCommand('mtrl.checkLearningSignal', workspaceFile('lint'));
    const view = await signalView((v) => v.source.label === shownPath('lint') && v.drawn !== undefined && v.drawn.kind !== 'running');
    assert.equal(view.drawn!.kind, 'empty');
  });

  it("a training job's launch review shows the running cloud check launched for its dataset and runtime", async () => {
    assert.ok(runner().config?.emulatorUrl, 'the driver started no emulator: this test needs `mtrl emulator`');
    const file = workspaceFile('signal', 'refund-train.mtrl.json');
    const reward = `arn:aws:lambda:us-east-1:111122223333:function:refund-reward:${Date.now().toString(36)}`;
    // The review looks for a check (none, or one the command line kept on this machine: never this reward's).
    const before = await vscode.commands.executeCommand<ReviewShape>('mtrl.validateJobFile', file, { confirm: false });
    assert.ok(before.signal, 'the review of a training job says nothing about the learning signal');
    assert.notEqual(before.signal.check?.key.reward, reward);

    const training = JSON.parse(new TextDecoder().decode(await vscode.workspace.fs.readFile(file)));
    const launched = await vscode.commands.executeCommand<{ status: string; jobName: string; key: { reward: string } } | undefined>(
      'mtrl.checkLearningSignal',
      { training, rows: 4, reward, confirm: false },
    );
    assert.ok(launched, 'no cloud check was launched');
    assert.equal(launched.status, 'running');
    assert.equal(launched.key.reward, reward);

    const after = await vscode.commands.executeCommand<ReviewShape>('mtrl.validateJobFile', file, { confirm: false });
    const check = after.signal?.check;
    assert.ok(check, 'the review does not show the kept check');
    assert.equal(check.jobName, launched.jobName);
    assert.equal(check.route, 'cloud');
    assert.deepEqual(check.key, {
      dataset: 's3://mtrl-demo/refund/train.jsonl',
      runtime: 'arn:aws:bedrock-agentcore:us-east-1:111122223333:runtime/refund_agent-Refund1234',
      reward,
    });
    // The launch opened the check's report; it says the check is running until its job ends.
    const view = await signalView((v) => v.source.kind === 'kept' && v.drawn !== undefined);
    assert.equal(view.drawn!.kind, 'running');
  });
});
