// The replay board in the real VS Code: a fixture log file, "Open With…", a job read from the emulator's CloudWatch, and Insert Rollout Logging.
import assert from 'node:assert/strict';
import { spawnSync } from 'node:child_process';
import { createWriteStream, readFileSync, rmSync, writeFileSync } from 'node:fs';
import path from 'node:path';
import * as vscode from 'vscode';
import { ceiling, workspaceFile } from './workspace';

interface ReplayView {
  source: { kind: string; label: string };
  view?: {
    status: string;
    rollouts?: number;
    following?: boolean;
    groups: number;
    firstGroup?: string;
    selectedGroup?: string;
    rollout?: string;
    notices?: string[];
  };
}

/** Polls what the focused board reports until it has rendered groups (or an error/empty state). */
async function boardView(accept: (v: ReplayView) => boolean, timeoutMs = 30_000): Promise<ReplayView | undefined> {
  const deadline = Date.now() + ceiling(timeoutMs);
  let last: ReplayView | undefined;
  while (Date.now() < deadline) {
    last = await vscode.commands.executeCommand<ReplayView | undefined>('mtrl.getReplayView');
    if (last && accept(last)) return last;
    await new Promise((r) => setTimeout(r, 250));
  }
  assert.fail(`the board never got there; last report: ${JSON.stringify(last)}`);
}

const shown = (v: ReplayView) => v.view?.status !== 'loading' && v.view?.firstGroup !== undefined && v.view.rollout !== undefined;

describe('replay board', function () {
  this.timeout(ceiling(90_000));

  before(async () => {
    await vscode.extensions.getExtension('mtrl.mtrl-workbench')?.activate();
  });
  afterEach(async () => {
    await vscode.commands.executeCommand('workbench.action.closeAllEditors');
  });

  it('opens a fixture log file and shows its first group and rollout', async () => {
    const uri = workspaceFile('replay', 'rollouts.log');
    const firstAnswer = JSON.parse(JSON.parse(readFileSync(uri.fsPath, 'utf8').split('\n')[1]).message).answer as string;
    await vscode.commands.executeCommand('mtrl.openRollouts', uri);
    const v = await boardView(shown);
    assert.equal(v?.source.kind, 'file');
    assert.equal(v?.view?.status, 'ready');
    // A log file carries no step, so its groups may be labelled as pooled ("· step unknown").
    assert.match(v?.view?.firstGroup ?? '', new RegExp(`^${firstAnswer.toUpperCase()}( · step unknown)?$`));
    assert.equal(v?.view?.groups, 6);
    assert.ok(v?.view?.selectedGroup?.startsWith(firstAnswer.toUpperCase()), v?.view?.selectedGroup);
  });

  it('opens a .log file with "Open With…" (custom editor)', async () => {
    await vscode.commands.executeCommand('vscode.openWith', workspaceFile('replay', 'rollouts.log'), 'mtrl.rolloutLog');
    const v = await boardView(shown);
    assert.equal(v?.view?.groups, 6);
  });

  it('reads a job’s rollouts from its runtime log group in the emulator', async () => {
    await vscode.commands.executeCommand('mtrl.openRollouts', {
      jobName: 'wordle-eval-base-gptoss20b',
      category: 'AgentRFTEvaluation',
      region: 'us-east-1',
    });
    const v = await boardView(
      (b) => b.source.kind === 'job' && (shown(b) || b.view?.status === 'error' || b.view?.status === 'empty'),
      60_000,
    );
    assert.equal(v?.view?.status, 'ready', JSON.stringify(v));
    assert.ok((v?.view?.groups ?? 0) > 10, `groups: ${v?.view?.groups}`);
  });

  it('follows a running job’s log group and appends new rollouts', async () => {
    const settings = vscode.workspace.getConfiguration('mtrl.replay');
    await settings.update('followSeconds', 2, vscode.ConfigurationTarget.Workspace);
    try {
      // The emulator's in-progress job keeps logging rollouts to the seeded runtime's log group.
      await vscode.commands.executeCommand('mtrl.openRollouts', {
        logGroup: '/aws/bedrock-agentcore/runtimes/wordle_agent-AbCdEf1234-DEFAULT',
        start: Date.now() - 5_000,
      });
      const first = await boardView((b) => b.source.kind === 'logGroup' && shown(b), 60_000);
      assert.equal(first?.view?.following, true);
      const later = await boardView((b) => (b.view?.rollouts ?? 0) > (first?.view?.rollouts ?? 0), 30_000);
      assert.ok(later?.view?.following);
    } finally {
      await settings.update('followSeconds', undefined, vscode.ConfigurationTarget.Workspace);
    }
  });

  it('Export Report… writes the board as one offline HTML file, named by the caller', async () => {
    const uri = workspaceFile('replay', 'rollouts.log');
    const firstAnswer = JSON.parse(JSON.parse(readFileSync(uri.fsPath, 'utf8').split('\n')[1]).message).answer as string;
    await vscode.commands.executeCommand('mtrl.openRollouts', uri);
    await boardView(shown);
    const to = workspaceFile('replay', 'board-report.html');
    rmSync(to.fsPath, { force: true });
    const written = await vscode.commands.executeCommand<vscode.Uri | undefined>('mtrl.exportReport', { to });
    assert.equal(written?.fsPath, to.fsPath);
    const html = readFileSync(to.fsPath, 'utf8');
    assert.match(html, /<meta http-equiv="Content-Security-Policy" content="default-src &#39;none&#39;;/);
    assert.match(html, /<title>[^<]*\d+ rollouts · 6 groups[^<]*<\/title>/);
    assert.ok(html.includes(firstAnswer), `the report does not carry the first rollout's answer "${firstAnswer}"`);
    assert.doesNotMatch(html, /<script[^>]+src=|<link[^>]+href="https?:/);
    rmSync(to.fsPath);
  });

  it('MTRL: Scan Rollouts finds on the board what `mtrl scan` (the installed dist/cli.js) finds in the same file', async () => {
    const uri = workspaceFile('replay', 'support-rollouts.log');
    const editor = await vscode.commands.executeCommand<{ scanned: number; findings: { kind: string; rollouts: number }[] }>(
      'mtrl.scanRollouts',
      uri,
    );
    const cli = path.join(vscode.extensions.getExtension('mtrl.mtrl-workbench')!.extensionPath, 'dist', 'cli.js');
    const run = spawnSync(process.execPath, [cli, 'scan', uri.fsPath, '--json'], {
      encoding: 'utf8',
      env: { ...process.env, ELECTRON_RUN_AS_NODE: '1' },
    });
    const terminal = JSON.parse(run.stdout) as { scanned: number; findings: { kind: string; rollouts: number }[] };
    const kinds = (r: typeof terminal) => r.findings.map((f) => `${f.kind} ${f.rollouts}`);
    assert.ok(terminal.findings.length >= 2, `the fixture should hold two kinds at least: ${run.stdout}${run.stderr}`);
    assert.equal(editor?.scanned, terminal.scanned);
    assert.deepEqual(kinds(editor!), kinds(terminal));
  });

  it('says so when a file holds no rollout', async () => {
    const empty = workspaceFile('replay', 'no-rollouts.log');
    writeFileSync(empty.fsPath, 'INFO starting\nWARNING auth failure; refreshing bearer token\n');
    await vscode.commands.executeCommand('mtrl.openRollouts', empty);
    const v = await boardView((b) => b.source.label.endsWith('no-rollouts.log') && b.view?.status === 'empty');
    assert.equal(v?.view?.groups, 0);
  });

  it('shows a notice naming a line too long to read, and the rollouts around it', async () => {
    const file = workspaceFile('replay', 'overlong.log');
    const record = (id: string) =>
      JSON.stringify({ mtrl_rollout: 1, trajectory_id: id, answer: 'crane', turns: [{ guess: 'crane' }], solved: true, reward: 1 });
    // 65 M characters without a newline: past the 64 M line cap every reader shares.
    const out = createWriteStream(file.fsPath);
    out.write(`${record('before')}\n`);
    const mb = 'x'.repeat(1024 * 1024);
    for (let i = 0; i < 65; i++) out.write(mb);
    out.write(`\n${record('after')}\n`);
    await new Promise((resolve) => out.end(resolve));
    await vscode.commands.executeCommand('mtrl.openRollouts', file);
    const v = await boardView(
      (b) => b.source.label.endsWith('overlong.log') && b.view?.status === 'ready' && !!b.view.notices?.length,
      60_000,
    );
    assert.deepEqual(v?.view?.notices, ['Line 2 (68,157,440 characters) is longer than 64 M characters and was not read.']);
    assert.equal(v?.view?.rollouts, 2);
    rmSync(file.fsPath);
  });

  it('Insert Rollout Logging adds the function and one call, is idempotent and undoable', async () => {
    const file = workspaceFile('replay', 'agent.py');
    const original =
      'import json\n\n\ndef handle_rollout(payload):\n    game = WordleGame(payload)\n    return {"reward": game.final_reward()}\n';
    writeFileSync(file.fsPath, original);
    const editor = await vscode.window.showTextDocument(await vscode.workspace.openTextDocument(file));
    assert.equal(await vscode.commands.executeCommand('mtrl.insertRolloutLogging'), true);
    const text = editor.document.getText();
    assert.match(text, /^def log_rollout\(trajectory_id, answer, turns, reward,/m);
    assert.match(
      text,
      /^ {4}log_rollout\(.*"rolloutId"\).*getattr\(game, "answer", None\).*game\.final_reward\(\).*\)\n {4}return \{"reward"/m,
    );
    assert.equal(await vscode.commands.executeCommand('mtrl.insertRolloutLogging'), false, 'a second run changes nothing');
    assert.equal(editor.document.getText(), text);
    await vscode.commands.executeCommand('undo');
    assert.equal(editor.document.getText(), original, 'one undo removes the whole insertion');
  });
});
