// The health watch in plain Node: the feature against the `vscode` stub, the real SDK against the emulator's stalled job.
import { strict as assert } from 'node:assert';
import * as vscode from 'vscode';
import { AwsClients } from '../../../../src/aws/clients';
import { explainAwsError } from '../../../../src/aws/errors';
import { settingValue, type SettingKey } from '../../../../src/core/settings';
import { startEmulator, type Emulator } from '../../../../src/emulator/server';
import { HealthMarks } from '../../../../src/features/health/marks';
import { HealthWatch } from '../../../../src/features/health/watch';
import type { Services } from '../../../../src/features/services';
import { sageMakerJobsBackend } from '../../../../src/services/jobs/backend';
import { JobsModel } from '../../../../src/services/jobs/model';
import type { JobNode } from '../../../../src/services/jobs/nodes';
import { ceiling } from '../../../host/lib/ceiling';
import { harness } from '../../vscode/stub';

const WEST = 'us-west-2';

/** No rollout log to read: the watch's rollout scan (its own tests in test/unit/core/scan*) gives way to the curves alone. */
class WithoutLogs extends AwsClients {
  override logs(): never {
    throw new Error('no CloudWatch Logs in this test');
  }
}
const STALLED = { jobName: 'wordle-grpo-stalled', category: 'AgentRFT', region: WEST } as const;

describe('health watch (the feature against the vscode stub and the emulator)', function () {
  this.timeout(ceiling(60_000));
  let emulator: Emulator;
  let aws: AwsClients;
  let model: JobsModel;
  let overrides: Partial<Record<SettingKey, unknown>>;
  /** What the extension keeps between sessions: a new watch over the same store is a window reloaded. */
  let notified: Record<string, string[]> | undefined;
  let warnings: string[];
  let ran: { id: string; args: unknown[] }[];
  let disposables: vscode.Disposable[];

  const services = () =>
    ({
      aws,
      output: { warn: (line: string) => warnings.push(line) },
      settings: { get: (key: SettingKey) => settingValue(key, overrides[key]) },
      stores: { healthNotified: { get: () => notified, set: async (value: typeof notified) => void (notified = value) } },
      explain: (error: unknown, action: string) => explainAwsError(error, { endpoint: emulator.url, action }).sentence,
    }) as unknown as Services;

  const stalledNode = async () => {
    const node = (await model.find(STALLED)) as JobNode | undefined;
    assert.ok(node?.details, `${STALLED.jobName} is not listed with its details`);
    return node;
  };
  /** The toasts shown for the stalled job so far, and the commands their answers ran, once the answers' promises ran. */
  const toasts = async () => {
    await new Promise((resolve) => setImmediate(resolve));
    return harness.said.filter((s) => s.kind === 'warning' && s.text.startsWith(`${STALLED.jobName}: `)).map((s) => s.text);
  };

  beforeEach(async () => {
    harness.reset();
    emulator = await startEmulator({});
    aws = new WithoutLogs(() => ({ region: WEST, endpoint: emulator.url }));
    model = new JobsModel({
      backend: sageMakerJobsBackend(aws),
      regions: () => [WEST],
      explain: (error, action) => explainAwsError(error, { endpoint: emulator.url, action }),
      hasRollouts: () => false,
      now: () => new Date(),
    });
    overrides = {};
    notified = undefined;
    warnings = [];
    ran = [];
    disposables = ['mtrl.showMetrics', 'mtrl.openRollouts', 'mtrl.stopJob'].map((id) =>
      vscode.commands.registerCommand(id, (...args: unknown[]) => void ran.push({ id, args })),
    );
  });

  afterEach(async () => {
    for (const d of disposables) d.dispose();
    aws.reset();
    await emulator.close();
  });

  it('notifies a running job once per finding, with Open Curves and Stop Job; the answer runs its command', async () => {
    const marks = new HealthMarks();
    const watch = new HealthWatch(services(), marks);
    const node = await stalledNode();
    harness.answers.push('Stop Job');
    await watch.check([node]);
    const shown = await toasts();
    assert.equal(shown.length, 1, shown.join('\n'));
    assert.match(shown[0], /^wordle-grpo-stalled: stalled at step 8\. No new step since step 8, .* ago, while a step has taken about /);
    assert.deepEqual(
      ran.map((r) => r.id),
      ['mtrl.stopJob'],
      'Stop Job hands the job to mtrl.stopJob, which asks first',
    );
    assert.equal((ran[0].args[0] as JobNode).jobName, STALLED.jobName);
    assert.ok(marks.get(node.id), 'the row gets the report to draw');
    assert.deepEqual(notified, { [node.arn]: ['stalled'] });
    assert.equal(warnings.length, 1, 'the finding is also in the MTRL log');

    await watch.check([await stalledNode()]);
    assert.equal((await toasts()).length, 1, 'the next poll finds the same finding and says nothing');
  });

  it('remembers what it said across a reload, and says a new kind on the same job; Open Curves opens its curves', async () => {
    await new HealthWatch(services(), new HealthMarks()).check([await stalledNode()]);
    assert.equal((await toasts()).length, 1);

    // A reloaded window: a new watch, the same store. A threshold every rollout share crosses brings a new kind.
    overrides['health.failedRolloutShare'] = 0;
    harness.answers.push('Open Curves');
    await new HealthWatch(services(), new HealthMarks()).check([await stalledNode()]);
    const shown = await toasts();
    assert.equal(shown.length, 2, shown.join('\n'));
    assert.match(shown[1], /^wordle-grpo-stalled: failing-rollouts at step /);
    assert.deepEqual(
      ran.map((r) => [r.id, r.args[0]]),
      [['mtrl.showMetrics', STALLED]],
    );
  });

  it('says nothing when mtrl.health.notify is off, and still marks the row', async () => {
    overrides['health.notify'] = false;
    const marks = new HealthMarks();
    const node = await stalledNode();
    await new HealthWatch(services(), marks).check([node]);
    assert.deepEqual(await toasts(), []);
    assert.ok(marks.get(node.id));
  });
});
