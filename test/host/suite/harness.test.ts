// The harness gives every suite what it promises: a disposable workspace copy, and the emulator wired in when it runs.
import assert from 'node:assert/strict';
import path from 'node:path';
import * as vscode from 'vscode';
import type { RunnerApi } from '../runner/runner';

function config() {
  const config = vscode.extensions.getExtension<RunnerApi>('mtrl-test.mtrl-host-runner')?.exports.config;
  assert.ok(config, 'the runner has no config');
  return config;
}

describe('host harness', () => {
  it('opens a per-run copy of test/fixtures/workspace', () => {
    const folder = vscode.workspace.workspaceFolders?.[0]?.uri.fsPath;
    assert.equal(folder, config().workspace);
    assert.ok(!folder.includes(`${path.sep}test${path.sep}fixtures${path.sep}`), `the tests would edit the repo's fixtures: ${folder}`);
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
});
