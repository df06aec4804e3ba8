// Evaluation sweeps and comparisons against the emulator, in the real VS Code with the installed extension.
import assert from 'node:assert/strict';
import * as vscode from 'vscode';
import { runner, workspaceFile } from './workspace';
import { ceiling } from '../lib/ceiling';

const REGION = 'us-east-1';
const ACCOUNT = '111122223333';
const BASE = 'wordle-eval-base-gptoss20b';
const TRAINED = 'wordle-eval-trained-gptoss20b';

const comparisonTabs = () =>
  vscode.window.tabGroups.all
    .flatMap((g) => g.tabs)
    .filter((t) => t.input instanceof vscode.TabInputWebview && t.input.viewType.includes('mtrl.comparison'));

describe('evaluation sweeps and comparisons', function () {
  this.timeout(ceiling(90_000));

  before(async () => {
    assert.ok(runner().config?.emulatorUrl, 'the driver started no emulator: these tests need `mtrl emulator`');
    await vscode.extensions.getExtension('mtrl.mtrl-workbench')!.activate();
  });

  it('compares two evaluations selected in the Jobs view: a grid with the adapter against the base model, copied as Markdown', async () => {
    const node = (jobName: string) => ({ jobName, category: 'AgentRFTEvaluation', region: REGION });
    const grid = await vscode.commands.executeCommand<{ rows: string[]; columns: string[]; deltas: { significant: boolean }[] }>(
      'mtrl.compareEvaluations',
      node(BASE),
      [node(BASE), node(TRAINED)],
    );
    assert.deepEqual(grid.columns, ['base model', 'adapter wordle-gptoss20b-grpo-100steps-adapter/1']);
    assert.equal(grid.deltas.length, 1);
    assert.equal(grid.deltas[0].significant, true);
    // The panel's tab appears once the workbench has opened it.
    for (let i = 0; i < 100 && comparisonTabs().length === 0; i++) await new Promise((resolve) => setTimeout(resolve, 100));
    assert.deepEqual(
      comparisonTabs().map((t) => t.label),
      ['Compare 2 evaluations'],
      vscode.window.tabGroups.all.flatMap((g) => g.tabs.map((t) => t.label)).join(' | '),
    );
    const markdown = await vscode.commands.executeCommand<string>('mtrl.copyComparisonMarkdown');
    assert.match(markdown, /^\| settings \| base model \| adapter /);
    assert.match(markdown, /\*/);
  });

  it('opens the comparison each time it is asked, also while another webview (the replay board) has the focus', async () => {
    const node = (jobName: string) => ({ jobName, category: 'AgentRFTEvaluation', region: REGION });
    const activeTab = () => vscode.window.tabGroups.activeTabGroup.activeTab;
    const until = async (what: string, met: () => boolean) => {
      for (let i = 0; i < 150 && !met(); i++) await new Promise((resolve) => setTimeout(resolve, 100));
      assert.ok(met(), `${what}; tabs: ${vscode.window.tabGroups.all.flatMap((g) => g.tabs.map((t) => t.label)).join(' | ')}`);
    };
    for (let round = 1; round <= 2; round++) {
      await vscode.commands.executeCommand('vscode.openWith', workspaceFile('replay', 'rollouts.log'), 'mtrl.rolloutLog');
      await until(`round ${round}: the replay board is the active tab`, () => activeTab()?.input instanceof vscode.TabInputCustom);
      await vscode.commands.executeCommand('mtrl.compareEvaluations', node(BASE), [node(BASE), node(TRAINED)]);
      await until(`round ${round}: the comparison is the active tab`, () => activeTab()?.label === 'Compare 2 evaluations');
    }
    await vscode.commands.executeCommand('workbench.action.closeAllEditors');
  });

  it('starts a sweep from its file: one evaluation launched, the rest waiting; starting again launches nothing twice', async () => {
    const uri = workspaceFile('host-sweep.mtrl-sweep.json');
    const sweep = {
      name: 'host-sweep',
      region: REGION,
      roleArn: `arn:aws:iam::${ACCOUNT}:role/MtrlJobRole`,
      baseModelArn: `arn:aws:sagemaker:${REGION}:aws:hub-content/SageMakerPublicHub/Model/openai-reasoning-gpt-oss-20b`,
      evaluationUri: 's3://mtrl-demo/wordle/val.jsonl',
      outputPath: 's3://mtrl-demo/eval',
      models: [{ label: 'base' }, { label: 'adapter', trainingJob: 'wordle-gptoss20b-grpo-100steps' }],
      runtimes: [{ label: 'medium', runtimeArn: `arn:aws:bedrock-agentcore:${REGION}:${ACCOUNT}:runtime/wordle_agent-AbCdEf1234` }],
      grid: { temperature: ['1.0', '0.6'] },
    };
    await vscode.workspace.fs.writeFile(uri, new TextEncoder().encode(JSON.stringify(sweep, null, 2)));
    const editor = await vscode.window.showTextDocument(uri);
    const lenses = await vscode.commands.executeCommand<vscode.CodeLens[]>('vscode.executeCodeLensProvider', editor.document.uri);
    assert.ok(
      lenses.some((l) => /Start sweep: 4 evaluations, one at a time/.test(l.command?.title ?? '')),
      lenses.map((l) => l.command?.title).join(' | '),
    );

    type Started = { control: string; progress?: { total: number; running: number; waiting: number }; problem?: string };
    const started = await vscode.commands.executeCommand<Started>('mtrl.startSweep', uri);
    assert.equal(started.problem, undefined);
    assert.deepEqual(started.progress && [started.progress.total, started.progress.running, started.progress.waiting], [4, 1, 3]);
    const again = await vscode.commands.executeCommand<Started>('mtrl.startSweep', uri);
    assert.deepEqual(again.progress && [again.progress.running, again.progress.waiting], [1, 3]);

    await vscode.commands.executeCommand('mtrl.cancelSweep', uri, true);
    const after = await vscode.commands.executeCommand<Started>('mtrl.pauseSweep', uri);
    assert.equal(after, 'paused');
  });
});
