// The smoke test against the emulator and the agent/role lint, in the real VS Code with the installed extension.
import assert from 'node:assert/strict';
import * as vscode from 'vscode';
import type { SmokeResult } from '../../../src/core/smoke';
import { ceiling, diagnosticsFrom, runner, workspaceFile } from './workspace';

const GOOD_RUNTIME = 'arn:aws:bedrock-agentcore:us-east-1:111122223333:runtime/wordle_agent-AbCdEf1234';

/** The sources of this feature's diagnostics (other features may report on the same files). */
const LINT_SOURCES = ['MTRL (python ast)', 'MTRL (regex)', 'MTRL (role lint)'];

const diagnosticsOf = (uri: vscode.Uri, accept: (d: vscode.Diagnostic[]) => boolean) =>
  diagnosticsFrom(uri, (source) => LINT_SOURCES.includes(source), accept);

const tabs = () => vscode.window.tabGroups.all.flatMap((g) => g.tabs);

/** The report's tab (the Markdown preview, or the document itself), once the workbench has told the extension host about it. */
async function reportTab(runtimeId: string, timeoutMs = 10_000): Promise<vscode.Tab | undefined> {
  const deadline = Date.now() + ceiling(timeoutMs);
  for (;;) {
    const found = tabs().find((t) => t.label.includes(runtimeId));
    if (found || Date.now() > deadline) return found;
    await new Promise((resolve) => setTimeout(resolve, 200));
  }
}

describe('smoke test', function () {
  this.timeout(ceiling(90_000));

  before(async () => {
    assert.ok(runner().config?.emulatorUrl, 'the driver started no emulator: these tests need `mtrl emulator`');
    await vscode.extensions.getExtension('mtrl.mtrl-workbench')!.activate();
  });

  it('passes on the seeded READY runtime and shows the report', async () => {
    const result = await vscode.commands.executeCommand<SmokeResult>('mtrl.smokeTestRuntime', { runtimeArn: GOOD_RUNTIME });
    assert.ok(result, 'the command returned no result');
    assert.equal(result.verdict.ok, true, result.verdict.summary);
    assert.equal(result.callerAccount, '111122223333');
    assert.deepEqual(
      result.verdict.checks.map((c) => `${c.id} ${c.state}`),
      ['transport pass', 'wiring pass', 'contract pass', 'pack pass'],
    );
    const preview = await reportTab('wordle_agent-AbCdEf1234');
    assert.ok(
      preview,
      `no report preview among tabs: ${tabs()
        .map((t) => `${t.label} (${t.input?.constructor.name})`)
        .join(', ')}`,
    );
    const report = await vscode.workspace.openTextDocument(
      vscode.Uri.from({ scheme: 'mtrl-smoke', path: '/Smoke test wordle_agent-AbCdEf1234.md', query: GOOD_RUNTIME }),
    );
    assert.match(report.getText(), /# Smoke test: passed/);
    assert.match(report.getText(), /status=400 body=.*Could not find job/);
  });

  it('MTRL: Smoke Test Agent File (local) passes an agent that catches the 400 and fails one that returns an error status', async () => {
    const good = await vscode.commands.executeCommand<SmokeResult>('mtrl.smokeTestAgentFile', workspaceFile('smoke', 'catching_agent.py'));
    assert.equal(good?.verdict.ok, true, good?.verdict.summary);
    const bad = await vscode.commands.executeCommand<SmokeResult>(
      'mtrl.smokeTestAgentFile',
      workspaceFile('smoke', 'error_status_agent.py'),
    );
    assert.equal(bad?.verdict.ok, false);
    assert.equal(bad?.verdict.summary, 'Smoke test failed: The agent returned status "error" instead of a reward.');
  });

  it('diagnoses a runtime with no HTTP server as a timeout (decorator order)', async () => {
    const smoke = vscode.workspace.getConfiguration('mtrl.smoke');
    await smoke.update('invokeTimeoutSeconds', 2, vscode.ConfigurationTarget.Global);
    await smoke.update('logWaitSeconds', 1, vscode.ConfigurationTarget.Global);
    try {
      const runtime = GOOD_RUNTIME.replace('wordle_agent-AbCdEf1234', 'wordle_agent_no_server-NoServer12');
      const result = await vscode.commands.executeCommand<SmokeResult>('mtrl.smokeTestRuntime', { runtimeArn: runtime });
      assert.ok(result);
      assert.equal(result.verdict.ok, false);
      assert.ok(
        result.verdict.diagnoses.some((d) => /outermost/.test(d.fix)),
        JSON.stringify(result.verdict.diagnoses),
      );
    } finally {
      await smoke.update('invokeTimeoutSeconds', undefined, vscode.ConfigurationTarget.Global);
      await smoke.update('logWaitSeconds', undefined, vscode.ConfigurationTarget.Global);
    }
  });
});

describe('agent and role lint', function () {
  this.timeout(ceiling(60_000));

  it('open job files do not set each other off: the role lint still runs and nothing overflows the stack', async () => {
    // Each job file once re-checked every open JSON file, itself a job file among them: without end, until the extension
    // host ran out of stack (and, with three open, of memory).
    const overflows: unknown[] = [];
    const listen = (reason: unknown) => reason instanceof RangeError && overflows.push(reason);
    process.on('unhandledRejection', listen);
    try {
      for (const file of [
        ['signal', 'refund-train.mtrl.json'],
        ['signal', 'wordle-train.mtrl.json'],
        ['launch', 'wordle-host-launch.mtrl.json'],
      ])
        await vscode.workspace.openTextDocument(workspaceFile(...file));
      const role = workspaceFile('lint', 'training-role.json');
      await vscode.workspace.openTextDocument(role);
      await diagnosticsOf(role, (d) => d.length > 0);
      assert.deepEqual(overflows.map(String), []);
    } finally {
      process.off('unhandledRejection', listen);
    }
  });

  it('flags swapped decorators in main.py and the quick fix clears it', async () => {
    const uri = workspaceFile('lint', 'main.py');
    const document = await vscode.workspace.openTextDocument(uri);
    await vscode.window.showTextDocument(document);
    const [diagnostic] = await diagnosticsOf(uri, (d) => d.some((x) => x.code === 'decorator-order'));
    assert.equal(diagnostic.severity, vscode.DiagnosticSeverity.Error);
    assert.equal(diagnostic.source, 'MTRL (python ast)');
    const actions = await vscode.commands.executeCommand<vscode.CodeAction[]>('vscode.executeCodeActionProvider', uri, diagnostic.range);
    const fix = actions.find((a) => /entrypoint outermost/.test(a.title));
    assert.ok(fix?.edit, `no quick fix among ${actions.map((a) => a.title).join(', ')}`);
    assert.ok(await vscode.workspace.applyEdit(fix.edit));
    assert.match(document.getText(), /@app\.entrypoint\n@sagemaker_rft_handler\ndef handle_rollout/);
    await document.save();
    await diagnosticsOf(uri, (d) => d.length === 0);
  });

  it('flags a job role that trusts sagemaker.amazonaws.com and fixes it', async () => {
    const uri = workspaceFile('lint', 'training-role.json');
    const document = await vscode.workspace.openTextDocument(uri);
    await vscode.window.showTextDocument(document);
    const found = await diagnosticsOf(uri, (d) => d.length === 2);
    assert.deepEqual(found.map((d) => d.code).sort(), ['missing-tag-session', 'trusts-sagemaker']);
    const trust = found.find((d) => d.code === 'trusts-sagemaker')!;
    assert.match(trust.message, /needs job\.sagemaker\.amazonaws\.com/);
    const actions = await vscode.commands.executeCommand<vscode.CodeAction[]>('vscode.executeCodeActionProvider', uri, trust.range);
    const fix = actions.find((a) => /Trust job\.sagemaker/.test(a.title));
    assert.ok(fix?.edit);
    assert.ok(await vscode.workspace.applyEdit(fix.edit));
    assert.equal(JSON.parse(document.getText()).Statement[0].Principal.Service, 'job.sagemaker.amazonaws.com');
    await document.save();
    const after = await diagnosticsOf(uri, (d) => d.length === 1);
    assert.equal(after[0].code, 'missing-tag-session');
  });
});
