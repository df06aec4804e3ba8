// Resume from a checkpoint through the job document's lens and the Jobs view's command, in the real VS Code against the emulator.
import assert from 'node:assert/strict';
import * as vscode from 'vscode';
import { ceiling, runner } from './workspace';

interface LaunchResultShape {
  launched: boolean;
  jobName: string;
  reason?: string;
  review?: { arithmetic: string[] };
}

const REGION = 'us-east-1';

/** StopJob straight to the emulator: the Stop command asks in a modal dialog a test cannot answer (the emulator reads the SigV4 scope, not the signature). */
async function stopInEmulator(url: string, jobName: string): Promise<void> {
  const response = await fetch(url, {
    method: 'POST',
    headers: {
      'content-type': 'application/x-amz-json-1.1',
      'x-amz-target': 'SageMaker.StopJob',
      authorization: `AWS4-HMAC-SHA256 Credential=test/20261202/${REGION}/sagemaker/aws4_request, SignedHeaders=host, Signature=0`,
    },
    body: JSON.stringify({ JobName: jobName, JobCategory: 'AgentRFT' }),
  });
  assert.equal(response.status, 200, await response.text());
}

/** The job document's MTRL lenses, asked again until `accept` likes them (the job moves on its own). */
async function lensesUntil(
  uri: vscode.Uri,
  accept: (titles: string[]) => boolean,
  timeoutMs = ceiling(60_000),
): Promise<vscode.CodeLens[]> {
  const deadline = Date.now() + timeoutMs;
  for (;;) {
    const found = (await vscode.commands.executeCommand<vscode.CodeLens[]>('vscode.executeCodeLensProvider', uri)).filter((l) =>
      l.command?.command.startsWith('mtrl.'),
    );
    if (accept(found.map((l) => l.command!.title))) return found;
    assert.ok(Date.now() < deadline, `lenses of ${uri.toString()}: ${found.map((l) => l.command!.title).join(', ') || 'none'}`);
    await new Promise((resolve) => setTimeout(resolve, 500));
  }
}

describe('resume from a checkpoint', function () {
  // A new job of the reference shape (1,024 rollouts a step) reaches its first checkpoint in about 11 s at the emulator's pace.
  this.timeout(ceiling(120_000));
  const completed = { jobName: 'wordle-gptoss20b-grpo-100steps', category: 'AgentRFT', region: REGION };

  before(async () => {
    assert.ok(runner().config?.emulatorUrl, 'the driver started no emulator: these tests need `mtrl emulator`');
    await vscode.extensions.getExtension('mtrl.mtrl-workbench')!.activate();
  });

  it('a stopped job offers "Resume from Step N"; the resumed job is reviewed for steps N+1…100 and appears in the Jobs view', async () => {
    const jobName = `wordle-resume-${Date.now().toString(36)}`;
    const source = await vscode.commands.executeCommand<LaunchResultShape>('mtrl.launchSimilarJob', completed, { jobName, confirm: false });
    assert.equal(source?.launched, true, source?.reason);
    const document = vscode.Uri.from({ scheme: 'mtrl-job', path: `/${REGION}/AgentRFT/${jobName}.json` });
    // Running: no Resume lens, and the command answers with a sentence instead of launching.
    assert.equal(await vscode.commands.executeCommand('mtrl.resumeJob', { jobName, category: 'AgentRFT', region: REGION }), undefined);
    // Wait until a first step has finished (its checkpoint exists), then stop. Refresh Job fetches the open document
    // again, so the checkpoint shows within a step's time (before, only a status change did: three minutes).
    const deadline = Date.now() + ceiling(45_000);
    for (;;) {
      const text = (await vscode.workspace.openTextDocument(document)).getText();
      if (/"ResumableCheckpoint"/.test(text)) break;
      assert.ok(Date.now() < deadline, `no checkpoint yet:\n${text.slice(0, 400)}`);
      await new Promise((resolve) => setTimeout(resolve, 500));
      await vscode.commands.executeCommand('mtrl.refreshJob', { jobName, category: 'AgentRFT', region: REGION });
    }
    await stopInEmulator(runner().config!.emulatorUrl!, jobName);
    const lenses = await lensesUntil(document, (titles) => titles.some((t) => /Resume from Step \d+/.test(t)));
    const lens = lenses.find((l) => /Resume from Step \d+/.test(l.command!.title))!;
    const step = Number(/Resume from Step (\d+)/.exec(lens.command!.title)![1]);
    assert.ok(step >= 1);

    // `confirm: false` is the command's test-only option: no review picker, no dialog.
    const result = await vscode.commands.executeCommand<LaunchResultShape>(lens.command!.command, ...(lens.command!.arguments ?? []), {
      confirm: false,
    });
    assert.equal(result?.launched, true, result?.reason);
    assert.equal(result.jobName, `${jobName}-resume-${step}`);
    assert.ok(
      result.review?.arithmetic.includes(`resumes from the checkpoint of step ${step}: steps ${step + 1}…100 (${100 - step} steps)`),
      result.review?.arithmetic.join('\n'),
    );
    const node = await vscode.commands.executeCommand<{ jobName: string }>('mtrl.revealJob', {
      jobName: result.jobName,
      category: 'AgentRFT',
      region: REGION,
    });
    assert.equal(node?.jobName, result.jobName);
  });
});
