// The harness gives every suite what it promises: a fresh copy of the fixture folder of its own (no file another suite
// wrote), the emulator wired in when it runs, and a failing test that cannot change another suite's result.
import assert from 'node:assert/strict';
import { existsSync, readdirSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import path from 'node:path';
import * as vscode from 'vscode';
import { restoreAwsSettings } from '../runner/commands';
import { DELIBERATE_FAILURE, LEFTOVER } from '../selftest/contagion';
import { ceiling, runner, workspaceFile } from './workspace';

function config() {
  const config = runner().config;
  assert.ok(config, 'the runner has no config');
  return config;
}

describe('host harness', () => {
  it('opens a per-run workspace that holds only this suite’s own fresh copy of test/fixtures/workspace', () => {
    const folder = vscode.workspace.workspaceFolders?.[0]?.uri.fsPath;
    assert.equal(folder, config().workspace);
    assert.ok(!folder.includes(`${path.sep}test${path.sep}fixtures${path.sep}`), `the tests would edit the repo's fixtures: ${folder}`);
    const own = workspaceFile().fsPath;
    assert.equal(path.dirname(own), folder);
    assert.deepEqual(readdirSync(folder), [path.basename(own)], 'copies of other suites are still in the workspace');
    assert.deepEqual(readdirSync(own).sort(), readdirSync(config().fixture).sort());
    assert.equal(existsSync(workspaceFile(...LEFTOVER).fsPath), false);
  });

  it('watches every folder of this suite’s copy: a file written in any of them reaches an extension’s file watcher', async function () {
    this.timeout(ceiling(60_000));
    const folders = (function walk(dir: string): string[] {
      return [dir, ...readdirSync(dir, { withFileTypes: true }).flatMap((e) => (e.isDirectory() ? walk(path.join(dir, e.name)) : []))];
    })(workspaceFile().fsPath);
    assert.ok(folders.length > 5, `the copy has too few folders to tell: ${folders.join(', ')}`);
    const reported = new Set<string>();
    const watcher = vscode.workspace.createFileSystemWatcher('**/*.probe');
    const created = watcher.onDidCreate((uri) => reported.add(uri.fsPath));
    const probes = folders.map((folder) => path.join(folder, 'watched.probe'));
    try {
      for (const probe of probes) writeFileSync(probe, '');
      const deadline = Date.now() + ceiling(20_000);
      while (probes.some((p) => !reported.has(p)) && Date.now() < deadline) await new Promise((r) => setTimeout(r, 100));
      assert.deepEqual(
        probes.filter((p) => !reported.has(p)),
        [],
        'files written in these folders reached no file watcher',
      );
    } finally {
      created.dispose();
      watcher.dispose();
      for (const probe of probes) rmSync(probe, { force: true });
    }
  });

  it('points the AWS settings and credentials at the emulator exactly when one runs', () => {
    const { emulatorUrl } = config();
    const aws = vscode.workspace.getConfiguration('mtrl.aws');
    if (emulatorUrl) {
      assert.equal(aws.get('endpoint'), emulatorUrl);
      assert.equal(aws.get('region'), 'us-east-1');
      assert.equal(process.env.MTRL_EMULATOR_URL, emulatorUrl);
      assert.equal(process.env.AWS_ACCESS_KEY_ID, 'test');
    } else {
      assert.ok(!aws.get('endpoint'), 'an endpoint is set although no emulator runs');
      assert.equal(process.env.AWS_ACCESS_KEY_ID, undefined, 'AWS credentials leaked into the test host');
    }
    assert.equal(process.env.AWS_PROFILE, undefined, 'an AWS profile leaked into the test host');
  });

  it('puts back the AWS settings a UI check changed and left (a new check group starts from the session’s own)', async () => {
    const { awsSettings } = config();
    const aws = () => vscode.workspace.getConfiguration('mtrl.aws');
    const before = { region: aws().inspect('region')?.globalValue, profile: aws().inspect('profile')?.globalValue };
    assert.equal(before.region, awsSettings?.['aws.region'], 'the session did not start from its own AWS settings');
    try {
      await aws().update('region', 'eu-west-1', vscode.ConfigurationTarget.Global);
      await aws().update('profile', 'left-by-a-check', vscode.ConfigurationTarget.Global);
      await restoreAwsSettings(awsSettings);
      assert.deepEqual({ region: aws().inspect('region')?.globalValue, profile: aws().inspect('profile')?.globalValue }, before);
    } finally {
      await aws().update('region', before.region, vscode.ConfigurationTarget.Global);
      await aws().update('profile', before.profile, vscode.ConfigurationTarget.Global);
    }
  });

  it('contagion self-test: a test that writes a scenario file and fails before cleaning up leaves the next suite that reads scenario files passing', async function () {
    this.timeout(ceiling(240_000));
    const suite = (name: string) => config().selfTestSuites.find((f) => path.basename(f).startsWith(name));
    const [writer, reader] = [suite('contagion-writer'), suite('contagion-reader')];
    assert.ok(writer && reader, 'the driver bundled no self-test suites (test/host/selftest)');
    const keep = (name: string) => path.join(path.dirname(config().reportPath), 'contagion', name);
    const outcome = (tests: { file?: string; state: string; error?: { message: string } }[], file: string) =>
      tests.filter((t) => t.file === file).map((t) => (t.state === 'failed' ? `failed: ${t.error?.message}` : t.state));

    // Control: run on one shared folder (as before every suite had its own copy), the reader sees the writer's leftover
    // and fails. This proves the reader can tell, so its pass below is not vacuous.
    const shared = await runner().runInner([writer, reader], { shared: true, keepIn: keep('shared') });
    assert.deepEqual(outcome(shared.tests, writer), [`failed: ${DELIBERATE_FAILURE}`]);
    assert.equal(outcome(shared.tests, reader).length, 1);
    assert.match(outcome(shared.tests, reader)[0], /^failed: /, 'on a shared folder the reader should have seen the leftover');

    // The harness's way: each suite on its own copy. The writer fails the same way and leaves its file behind, in its copy
    // only; the reader passes, on a copy without it.
    const isolated = await runner().runInner([writer, reader], { shared: false, keepIn: keep('isolated') });
    assert.deepEqual(Object.keys(isolated.kept), [writer, reader]);
    assert.deepEqual(outcome(isolated.tests, writer), [`failed: ${DELIBERATE_FAILURE}`]);
    assert.deepEqual(outcome(isolated.tests, reader), ['passed']);
    const left = path.join(isolated.kept[writer], ...LEFTOVER);
    assert.match(readFileSync(left, 'utf8'), /from-board/, 'the writer wrote its scenario file');
    assert.equal(existsSync(path.join(isolated.kept[reader], ...LEFTOVER)), false, "the reader's copy holds the writer's file");
  });
});
