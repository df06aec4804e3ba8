// The Jobs view against the emulator's seeded history, in the real VS Code with the installed extension.
import assert from 'node:assert/strict';
import { existsSync, readFileSync } from 'node:fs';
import path from 'node:path';
import * as vscode from 'vscode';
import { runner } from './workspace';
import { ceiling } from '../lib/ceiling';

const REGION = 'us-east-1';
const SEEDED = {
  completed: 'wordle-gptoss20b-grpo-100steps',
  running: 'wordle-gptoss20b-grpo-lr-sweep',
  failed: 'wordle-gptoss20b-grpo-wrong-role',
  baseEval: 'wordle-eval-base-gptoss20b',
  trainedEval: 'wordle-eval-trained-gptoss20b',
};

interface Listed {
  region: string;
  category: string;
  jobs: Array<{ jobName: string; status: string }>;
  error?: string;
}

interface JobNodeShape {
  jobName: string;
  category: string;
  region: string;
  arn: string;
  contextValue: string;
  status: string;
}

describe('jobs view', function () {
  this.timeout(ceiling(60_000));

  before(async () => {
    assert.ok(runner().config?.emulatorUrl, 'the driver started no emulator: these tests need `mtrl emulator`');
    await vscode.extensions.getExtension('mtrl.mtrl-workbench')!.activate();
  });

  it('reveals jobs while the view loads for the first time and lists again, with no "No tree item" error', async () => {
    const ref = (jobName: string) => ({ jobName, category: 'AgentRFT', region: REGION });
    // What a launch or a notification's Show does at startup: reveal while the tree is still being built and refreshed.
    const [first] = await Promise.all([
      vscode.commands.executeCommand<JobNodeShape>('mtrl.revealJob', ref(SEEDED.completed)),
      vscode.commands.executeCommand('mtrl.jobs.focus'),
      vscode.commands.executeCommand('mtrl.refreshJobs'),
    ]);
    assert.equal(first?.jobName, SEEDED.completed);
    const [second] = await Promise.all([
      vscode.commands.executeCommand<JobNodeShape>('mtrl.revealJob', ref(SEEDED.failed)),
      vscode.commands.executeCommand('mtrl.refreshJobs'),
    ]);
    assert.equal(second?.jobName, SEEDED.failed);
    // The server's extension host logs to remoteexthost.log, a desktop one to exthost.log; both write in batches.
    const logs = ['remoteexthost.log', 'exthost.log'].map((name) => path.join(runner().extensionHostLogDir, name));
    const deadline = Date.now() + ceiling(1_500);
    let text = '';
    while (Date.now() < deadline && !/No tree item with id/.test(text)) {
      await new Promise((resolve) => setTimeout(resolve, 250));
      text = logs.map((log) => (existsSync(log) ? readFileSync(log, 'utf8') : '')).join('\n');
    }
    assert.ok(text, `no extension host log in ${runner().extensionHostLogDir}`);
    assert.deepEqual(
      text.split('\n').filter((l) => l.includes('No tree item with id')),
      [],
    );
  });

  it('lists the seeded training and evaluation jobs, newest first', async () => {
    const listed = await vscode.commands.executeCommand<Listed[]>('mtrl.refreshJobs');
    assert.deepEqual(
      listed.map((r) => [r.region, r.category, r.error]),
      [
        [REGION, 'AgentRFT', undefined],
        [REGION, 'AgentRFTEvaluation', undefined],
      ],
    );
    const training = listed[0].jobs.filter((j) => Object.values(SEEDED).includes(j.jobName));
    assert.deepEqual(training, [
      { jobName: SEEDED.running, status: 'InProgress' },
      { jobName: SEEDED.failed, status: 'Failed' },
      { jobName: SEEDED.completed, status: 'Completed' },
    ]);
    assert.deepEqual(
      listed[1].jobs.filter((j) => Object.values(SEEDED).includes(j.jobName)).map((j) => j.jobName),
      [SEEDED.trainedEval, SEEDED.baseEval],
    );
  });

  it('reveals a job and hands menus the job node contract', async () => {
    const node = await vscode.commands.executeCommand<JobNodeShape>('mtrl.revealJob', {
      jobName: SEEDED.completed,
      category: 'AgentRFT',
      region: REGION,
    });
    assert.ok(node, 'mtrl.revealJob found no node');
    assert.equal(node.jobName, SEEDED.completed);
    assert.equal(node.category, 'AgentRFT');
    assert.equal(node.region, REGION);
    assert.equal(node.arn, `arn:aws:sagemaker:us-east-1:111122223333:job/AgentRFT/${SEEDED.completed}`);
    assert.equal(node.contextValue, 'job:AgentRFT:Completed');
  });

  it('opens the configuration as a read-only JSON document with ServiceOutput', async () => {
    await vscode.commands.executeCommand('mtrl.openJobConfiguration', { jobName: SEEDED.completed, category: 'AgentRFT', region: REGION });
    const doc = vscode.window.activeTextEditor?.document;
    assert.ok(doc, 'no editor opened');
    assert.equal(doc.uri.scheme, 'mtrl-job');
    assert.equal(doc.languageId, 'json');
    const parsed = JSON.parse(doc.getText());
    assert.equal(parsed.TrainingConfig.HyperParameters.max_steps, '100');
    assert.ok(parsed.ServiceOutput.BillableTokenUsage.TrainTokenCount > 0);
    assert.match(doc.getText(), /^\{\n {2}"/, 'pretty-printed');
    // A content-provider document cannot be saved over: edits are refused by the workbench.
    await vscode.commands.executeCommand('workbench.action.closeActiveEditor');
  });

  it('opens the service logs with Load older / Load newer / Follow CodeLens', async () => {
    await vscode.commands.executeCommand('mtrl.openJobLogs', { jobName: SEEDED.completed, category: 'AgentRFT', region: REGION });
    const doc = vscode.window.activeTextEditor?.document;
    assert.ok(doc && doc.uri.scheme === 'mtrl-job-logs', 'no log document opened');
    assert.match(doc.getText(), new RegExp(`^# ${SEEDED.completed} · /aws/sagemaker/Job/AgentRFT`));
    assert.match(doc.getText(), /Step 100\/100/);
    assert.equal(vscode.window.activeTextEditor?.selection.active.line, doc.lineCount - 1, 'the logs open at their tail');
    const lenses = await vscode.commands.executeCommand<vscode.CodeLens[]>('vscode.executeCodeLensProvider', doc.uri);
    const titles = lenses.map((l) => l.command?.title ?? '');
    assert.ok(
      titles.some((t) => t.includes('Load newer')),
      titles.join(', '),
    );
    assert.ok(
      titles.some((t) => t.includes('Follow')),
      titles.join(', '),
    );
    assert.equal(await vscode.commands.executeCommand<boolean>('mtrl.followJobLogs', doc.uri), true);
    const following = await vscode.commands.executeCommand<vscode.CodeLens[]>('vscode.executeCodeLensProvider', doc.uri);
    assert.ok(
      following.some((l) => l.command?.title.includes('Stop following')),
      'the lens offers to stop following',
    );
    assert.equal(await vscode.commands.executeCommand<boolean>('mtrl.followJobLogs', doc.uri), false);
    await vscode.commands.executeCommand('workbench.action.closeActiveEditor');
  });

  it('refuses to stop a finished job with a sentence, without asking', async () => {
    // A modal would block this test: reaching the end proves Stop did not ask for a job that cannot be stopped.
    await vscode.commands.executeCommand('mtrl.stopJob', { jobName: SEEDED.completed, category: 'AgentRFT', region: REGION });
    const node = await vscode.commands.executeCommand<JobNodeShape>('mtrl.revealJob', {
      jobName: SEEDED.completed,
      category: 'AgentRFT',
      region: REGION,
    });
    assert.equal(node.status, 'Completed');
  });
});
