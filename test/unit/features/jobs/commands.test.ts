// The Jobs view's commands in plain Node: the feature against the `vscode` stub, the real SDK against the emulator.
import { strict as assert } from 'node:assert';
import * as vscode from 'vscode';
import { AwsClients } from '../../../../src/aws/clients';
import { explainAwsError } from '../../../../src/aws/errors';
import { ManualClock } from '../../../../src/emulator/clock';
import { startEmulator, type Emulator } from '../../../../src/emulator/server';
import { registerJobsCommands } from '../../../../src/features/jobs/commands';
import { CONFIG_SCHEME, JobConfigurationProvider, jobUri } from '../../../../src/features/jobs/documents';
import { JobLogsProvider } from '../../../../src/features/jobs/logsDocument';
import { sageMakerJobsBackend } from '../../../../src/services/jobs/backend';
import { cloudWatchJobLogSource } from '../../../../src/services/jobs/logWindow';
import { JobsModel } from '../../../../src/services/jobs/model';
import { ceiling } from '../../../host/lib/ceiling';
import { harness } from '../../vscode/stub';

const REGION = 'us-east-1';
const RUNNING = { jobName: 'wordle-gptoss20b-grpo-lr-sweep', category: 'AgentRFT', region: REGION } as const;
const COMPLETED = { jobName: 'wordle-gptoss20b-grpo-100steps', category: 'AgentRFT', region: REGION } as const;

const checkpointStep = (text: string) =>
  (JSON.parse(text) as { ServiceOutput?: { ResumableCheckpoint?: { Step?: number } } }).ServiceOutput?.ResumableCheckpoint?.Step;

describe('jobs commands (the feature against the vscode stub and the emulator)', function () {
  this.timeout(ceiling(30_000));
  let emulator: Emulator;
  let clock: ManualClock;
  let aws: AwsClients;
  let model: JobsModel;
  let disposables: vscode.Disposable[];
  let redrawn: number;

  beforeEach(async () => {
    harness.reset();
    clock = new ManualClock();
    emulator = await startEmulator({ clock });
    aws = new AwsClients(() => ({ region: REGION, endpoint: emulator.url }));
    const backend = sageMakerJobsBackend(aws);
    const explain = (error: unknown, action: string) => explainAwsError(error, { endpoint: emulator.url, action }).sentence;
    model = new JobsModel({
      backend,
      regions: () => [REGION],
      explain: (error, action) => explainAwsError(error, { endpoint: emulator.url, action }),
      hasRollouts: () => false,
      now: () => new Date(clock.now()),
    });
    const configuration = new JobConfigurationProvider(backend, explain);
    const logs = new JobLogsProvider((job) => cloudWatchJobLogSource(aws, job), explain);
    const lines: string[] = [];
    const output = { info: (line: string) => lines.push(line) } as unknown as vscode.LogOutputChannel;
    redrawn = 0;
    disposables = [
      vscode.workspace.registerTextDocumentContentProvider(CONFIG_SCHEME, configuration),
      ...registerJobsCommands({
        model,
        backend,
        reveal: async (node) => node,
        logs,
        configuration,
        explain,
        output,
        changed: () => void redrawn++,
      }),
    ];
  });

  afterEach(async () => {
    for (const d of disposables) d.dispose();
    aws.reset();
    await emulator.close();
  });

  it('Refresh Job fetches an open job document again: the newer checkpoint shows without reopening it', async () => {
    const document = await vscode.workspace.openTextDocument(jobUri(CONFIG_SCHEME, RUNNING, 'json') as never);
    const before = checkpointStep(document.getText());
    clock.advance(60 * 60_000);
    await vscode.commands.executeCommand('mtrl.refreshJob', RUNNING);
    await harness.settled();
    const after = checkpointStep(document.getText());
    assert.ok(after !== undefined && after > (before ?? 0), `checkpoint step ${before} then ${after}`);
    assert.equal(redrawn, 1, 'polling is told that the jobs changed');
  });

  it('Stop Job asks first; answered, the job is Stopping', async () => {
    harness.answers.push(undefined);
    await vscode.commands.executeCommand('mtrl.stopJob', RUNNING);
    assert.match(harness.said[0].text, /^Stop wordle-gptoss20b-grpo-lr-sweep\?/);
    assert.equal(harness.said[0].modal, true);
    assert.equal((await model.find(RUNNING))?.status, 'InProgress', 'dismissed: nothing stopped');

    harness.answers.push('Stop Job');
    await vscode.commands.executeCommand('mtrl.stopJob', RUNNING);
    assert.equal((await model.find(RUNNING))?.status, 'Stopping');
  });

  it('Delete Job on a running job says to stop it first and deletes nothing; on a finished job it asks, then removes the row', async () => {
    await vscode.commands.executeCommand('mtrl.deleteJob', RUNNING);
    assert.match(harness.said.at(-1)!.text, /is InProgress; stop it and wait until it has stopped before deleting it/);
    assert.ok(await model.find(RUNNING));

    harness.answers.push('Delete Job');
    await vscode.commands.executeCommand('mtrl.deleteJob', COMPLETED);
    assert.match(harness.said.at(-1)!.text, /^Delete wordle-gptoss20b-grpo-100steps\?/);
    const listed = model.getRoots().flatMap((r) => r.jobs.map((j) => j.jobName));
    assert.ok(!listed.includes(COMPLETED.jobName), listed.join(', '));
  });

  it('Filter by Status takes the picked status into the listing query; Clear Filter drops it', async () => {
    harness.answers.push((items) => (items as { label: string }[]).find((i) => i.label === 'Completed'));
    await vscode.commands.executeCommand('mtrl.filterJobsByStatus');
    assert.equal(model.query.status, 'Completed');
    await vscode.commands.executeCommand('mtrl.clearJobsFilter');
    assert.equal(model.query.status, undefined);
  });
});
