// Launching from a job file via its CodeLens, in the real VS Code with the installed extension, against the emulator.
import assert from 'node:assert/strict';
import { execFile } from 'node:child_process';
import path from 'node:path';
import { isDeepStrictEqual, promisify } from 'node:util';
import * as vscode from 'vscode';
import { diagnosticsFrom, runner, workspaceFile } from './workspace';
import { ceiling } from '../lib/ceiling';

interface LaunchResultShape {
  launched: boolean;
  jobName: string;
  arn?: string;
  reason?: string;
  review?: {
    verdict: string;
    arithmetic: string[];
    settings: Array<{ name: string; value: string; source: string }>;
    checks: Array<{ check: string; level: string; message: string; fix?: string }>;
  };
}

const diagnosticsOf = (uri: vscode.Uri, accept: (d: vscode.Diagnostic[]) => boolean) =>
  diagnosticsFrom(uri, (source) => source.startsWith('MTRL'), accept);

/** Replaces the whole text of a file with an undoable edit and saves it, as a user would. */
async function rewrite(uri: vscode.Uri, change: (text: string) => string): Promise<vscode.TextDocument> {
  const doc = await vscode.workspace.openTextDocument(uri);
  const edit = new vscode.WorkspaceEdit();
  edit.replace(uri, new vscode.Range(doc.positionAt(0), doc.positionAt(doc.getText().length)), change(doc.getText()));
  assert.ok(await vscode.workspace.applyEdit(edit));
  await doc.save();
  return doc;
}

async function lenses(uri: vscode.Uri): Promise<vscode.CodeLens[]> {
  const found = await vscode.commands.executeCommand<vscode.CodeLens[]>('vscode.executeCodeLensProvider', uri);
  return found.filter((l) => l.command?.command.startsWith('mtrl.'));
}

describe('launch from a job file', function () {
  this.timeout(ceiling(90_000));
  const jobName = `wordle-host-launch-${Date.now().toString(36)}`;
  const file = () => workspaceFile('launch', 'wordle-host-launch.mtrl.json');

  before(async () => {
    assert.ok(runner().config?.emulatorUrl, 'the driver started no emulator: these tests need `mtrl emulator`');
    await vscode.extensions.getExtension('mtrl.mtrl-workbench')!.activate();
  });

  it('shows Validate and Launch lenses at the top of a job file', async () => {
    await vscode.window.showTextDocument(file());
    const found = await lenses(file());
    assert.deepEqual(
      found.map((l) => [l.command!.command, l.range.start.line]),
      [
        ['mtrl.validateJobFile', 0],
        ['mtrl.launchJobFile', 0],
      ],
    );
    assert.match(found[0].command!.title, /Validate/);
    assert.match(found[1].command!.title, /Launch/);
  });

  it('launches through the Launch lens and the job appears in the tree, with the runtime marked in use', async () => {
    await rewrite(file(), (text) => text.replace('"wordle-host-launch"', JSON.stringify(jobName)));
    const launch = (await lenses(file())).find((l) => l.command!.command === 'mtrl.launchJobFile')!;
    // `confirm: false` is the command's test-only option: no review picker, no dialog.
    const result = await vscode.commands.executeCommand<LaunchResultShape>(launch.command!.command, ...(launch.command!.arguments ?? []), {
      confirm: false,
    });
    assert.ok(result, 'the launch command returned nothing');
    assert.equal(result.launched, true, `${result.reason}\n${JSON.stringify(result.review?.checks, null, 1)}`);
    assert.equal(result.arn, `arn:aws:sagemaker:us-east-1:111122223333:job/AgentRFT/${jobName}`);
    assert.notEqual(result.review?.verdict, 'fail');
    assert.ok(
      result.review?.arithmetic.some((line) => /steps per epoch/.test(line)),
      JSON.stringify(result.review?.arithmetic),
    );

    const node = await vscode.commands.executeCommand<{ jobName: string; contextValue: string }>('mtrl.revealJob', {
      jobName,
      category: 'AgentRFT',
      region: 'us-east-1',
    });
    assert.ok(node, 'the new job is not in the jobs tree');
    assert.equal(node.jobName, jobName);
    assert.match(node.contextValue, /^job:AgentRFT:/);

    const banner = await diagnosticsOf(workspaceFile('launch', 'main.py'), (d) =>
      d.some((x) => x.code === 'runtime-in-use' && x.message.includes(jobName)),
    );
    assert.equal(banner.find((d) => d.code === 'runtime-in-use')!.severity, vscode.DiagnosticSeverity.Warning);
  });

  it('refuses to launch the same name twice, before CreateJob', async () => {
    const result = await vscode.commands.executeCommand<LaunchResultShape>('mtrl.launchJobFile', file(), { confirm: false });
    assert.equal(result.launched, false);
    assert.match(result.reason ?? '', /already exists/);
  });

  it("`mtrl launch --json` (the installed dist/cli.js) gives the same findings as Validate on the same file, and the review lists each setting's source", async () => {
    const review = await vscode.commands.executeCommand<LaunchResultShape['review']>('mtrl.validateJobFile', file(), { confirm: false });
    assert.ok(review, 'Validate returned no review');
    assert.deepEqual(
      review.settings.find((s) => s.name === 'max_steps_off_policy'),
      { name: 'max_steps_off_policy', value: '3', source: 'service default' },
    );
    const cli = path.join(vscode.extensions.getExtension('mtrl.mtrl-workbench')!.extensionPath, 'dist', 'cli.js');
    const run = await promisify(execFile)(
      process.execPath,
      [cli, 'launch', file().fsPath, '--json', '--endpoint', runner().config!.emulatorUrl!],
      { env: { ...process.env, ELECTRON_RUN_AS_NODE: '1', AWS_ACCESS_KEY_ID: 'test', AWS_SECRET_ACCESS_KEY: 'test' } },
    ).catch((error: { stdout?: string; code?: number }) => ({ stdout: error.stdout ?? '', code: error.code }));
    const findings = (JSON.parse(run.stdout) as { findings: Array<{ code: string; severity: string; message: string; fix?: string }> })
      .findings;
    const severity = { fail: 'error', warn: 'warning', pass: 'info' } as Record<string, string>;
    const findingsOf = (shown: NonNullable<typeof review>) =>
      shown.checks.map((c) => ({
        code: c.check,
        severity: severity[c.level],
        message: c.message,
        ...(c.fix && c.level !== 'pass' && { fix: c.fix }),
      }));
    // The smoke record is the editor's own (other suites smoke-test this runtime); every other check is the same call.
    const apart = (list: typeof findings) => list.filter((f) => f.code !== 'smoke');
    let editor = findingsOf(review);
    if (!isDeepStrictEqual(apart(findings), apart(editor))) {
      // The runtime check names the jobs running at the moment: one launched above may end between the two calls on a
      // loaded machine, so Validate runs again, after the CLI, and must then agree with it.
      const again = await vscode.commands.executeCommand<LaunchResultShape['review']>('mtrl.validateJobFile', file(), { confirm: false });
      editor = findingsOf(again!);
    }
    assert.deepEqual(apart(findings), apart(editor));
    assert.deepEqual(
      findings.map((f) => f.code),
      editor.map((f) => f.code),
    );
  });

  it('validates a job file with the wrong-trust role and underlines RoleArn', async () => {
    const doc = await rewrite(file(), (text) => text.replace('role/MtrlJobRole', 'role/MtrlWrongTrustRole'));
    const review = await vscode.commands.executeCommand<LaunchResultShape['review']>('mtrl.validateJobFile', file(), { confirm: false });
    assert.equal(review?.verdict, 'fail');
    const found = await diagnosticsOf(file(), (d) => d.some((x) => x.code === 'role'));
    const role = found.find((d) => d.code === 'role')!;
    assert.equal(role.severity, vscode.DiagnosticSeverity.Error);
    assert.match(role.message, /job\.sagemaker\.amazonaws\.com/);
    assert.equal(doc.getText(role.range), '"RoleArn"');
  });

  it('reports a broken job file at once, without AWS', async () => {
    await rewrite(file(), (text) => text.replace('"JobCategory": "AgentRFT"', '"JobCategory": "Training"'));
    const found = await diagnosticsOf(file(), (d) => d.some((x) => x.source === 'MTRL job file'));
    assert.match(found[0].message, /JobCategory must be "AgentRFT"/);
  });
});

describe('launch from the jobs tree', function () {
  this.timeout(ceiling(90_000));
  const completed = { jobName: 'wordle-gptoss20b-grpo-100steps', category: 'AgentRFT', region: 'us-east-1' };

  before(async () => {
    await vscode.extensions.getExtension('mtrl.mtrl-workbench')!.activate();
  });

  it('exports a job to a job file that names the same configuration, without ServiceOutput', async () => {
    const target = workspaceFile('launch', 'exported.mtrl.json');
    const written = await vscode.commands.executeCommand<vscode.Uri>('mtrl.exportJobFile', completed, target);
    assert.equal(written?.fsPath, target.fsPath);
    const text = new TextDecoder().decode(await vscode.workspace.fs.readFile(target));
    const file = JSON.parse(text);
    assert.deepEqual(Object.keys(file), ['JobName', 'JobCategory', 'Region', 'RoleArn', 'JobConfigSchemaVersion', 'JobConfigDocument']);
    assert.equal(file.JobName, completed.jobName);
    assert.equal(file.JobConfigDocument.ServiceOutput, undefined);
    assert.equal(file.JobConfigDocument.TrainingConfig.HyperParameters.max_steps, '100');
    assert.ok(
      (await lenses(target)).some((l) => l.command?.command === 'mtrl.launchJobFile'),
      'the exported file has no Launch lens',
    );
  });

  it('launches a similar job under a new name', async () => {
    const jobName = `wordle-similar-${Date.now().toString(36)}`;
    const result = await vscode.commands.executeCommand<LaunchResultShape>('mtrl.launchSimilarJob', completed, { jobName, confirm: false });
    assert.equal(result?.launched, true, `${result?.reason}`);
    const node = await vscode.commands.executeCommand<{ jobName: string }>('mtrl.revealJob', {
      jobName,
      category: 'AgentRFT',
      region: 'us-east-1',
    });
    assert.equal(node?.jobName, jobName);
  });
});
