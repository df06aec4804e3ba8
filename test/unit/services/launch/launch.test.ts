import { strict as assert } from 'node:assert';
import { mkdtempSync, readFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { AwsClients } from '../../../../src/aws/clients';
import { explainerFor } from '../../../../src/aws/errors';
import { describeJob } from '../../../../src/aws/sagemaker';
import { DocumentSchemas } from '../../../../src/core/jobs/documentSchema';
import { parseJobFile, type JobFile } from '../../../../src/core/jobs/jobfile';
import { DEFAULT_PRICING } from '../../../../src/core/jobs/pricing';
import { startEmulator, type Emulator } from '../../../../src/emulator/server';
import { launchJob, reviewJob, type LaunchDeps, type LaunchUi } from '../../../../src/services/launch/launch';
import { ModelCatalog } from '../../../../src/services/launch/modelCatalog';
import { signalChecksIn, type KeptSignalCheck } from '../../../../src/services/signal/checks';
import { ceiling } from '../../../host/lib/ceiling';

const demoText = readFileSync(path.resolve(__dirname, '../../../fixtures/demo-workspace/wordle-training.mtrl.json'), 'utf8');
const demo = parseJobFile(demoText).jobFile!;
const RUNTIME = 'arn:aws:bedrock-agentcore:us-east-1:111122223333:runtime/wordle_agent-AbCdEf1234';

describe('launchJob: the one launch of the wizards, job files and Launch Similar (emulator, real SDK over HTTP)', function () {
  this.timeout(ceiling(30_000));
  let emulator: Emulator;
  let aws: AwsClients;
  let deps: LaunchDeps;
  const logged: string[] = [];
  const saved = { id: process.env.AWS_ACCESS_KEY_ID, secret: process.env.AWS_SECRET_ACCESS_KEY };
  const named = (name: string): JobFile => ({ ...demo, JobName: name });

  before(async () => {
    process.env.AWS_ACCESS_KEY_ID = 'test';
    process.env.AWS_SECRET_ACCESS_KEY = 'test';
    emulator = await startEmulator({});
    aws = new AwsClients(() => ({ region: 'us-east-1', endpoint: emulator.url }));
    deps = {
      aws,
      schemas: new DocumentSchemas(),
      models: new ModelCatalog(aws, () => []),
      explain: explainerFor(() => aws.current),
      pricing: () => DEFAULT_PRICING,
      smokeResults: () => ({ [RUNTIME]: { ok: true, at: '2026-11-29T10:00:00Z', summary: 'reward -1.5' } }),
      log: (line) => logged.push(line),
    };
  });

  after(async () => {
    aws.reset();
    await emulator.close();
    process.env.AWS_ACCESS_KEY_ID = saved.id;
    process.env.AWS_SECRET_ACCESS_KEY = saved.secret;
    if (saved.id === undefined) delete process.env.AWS_ACCESS_KEY_ID;
    if (saved.secret === undefined) delete process.env.AWS_SECRET_ACCESS_KEY;
  });

  it('reviews (checks, arithmetic, cost from the seeded jobs, the document read once into facts) and logs each line', async () => {
    const review = await reviewJob(named('launch-flow-review'), deps);
    assert.ok(review);
    assert.equal(review.facts.runtimeArn, RUNTIME);
    assert.notEqual(review.verdict, 'fail', JSON.stringify(review.checks, null, 1));
    assert.match(review.arithmetic.join('\n'), /5 steps per epoch/);
    assert.ok(review.estimate && review.estimate.low > 0);
    assert.ok(logged.some((l) => l.startsWith('[pre-flight launch-flow-review] ')));
  });

  it("a training job's review carries the newest kept signal check of its dataset and runtime, whatever its reward; none kept: said as none", async () => {
    const checks = signalChecksIn(mkdtempSync(path.join(tmpdir(), 'mtrl-review-signal-')));
    const withChecks = { ...deps, signalChecks: checks };
    assert.deepEqual((await reviewJob(named('launch-flow-signal'), withChecks))?.signal, { check: undefined });
    const check = (reward: string, at: string, dataset = 's3://mtrl-demo/wordle/train.jsonl'): KeptSignalCheck => ({
      key: { dataset, runtime: RUNTIME, reward },
      at,
      route: 'cloud',
      status: 'done',
      groupSize: 4,
      rows: 16,
      jobName: `check-${reward}`,
    });
    await checks.keep(check('reward:1', '2026-12-01T10:00:00Z'));
    await checks.keep(check('reward:2', '2026-12-01T11:00:00Z'));
    await checks.keep(check('reward:3', '2026-12-01T12:00:00Z', 's3://mtrl-demo/other/train.jsonl'));
    const review = await reviewJob(named('launch-flow-signal'), withChecks);
    assert.equal(review?.signal?.check?.jobName, 'check-reward:2');
    assert.ok(logged.some((l) => /\[pre-flight launch-flow-signal\] Learning signal: /.test(l)));
    // Without a store (the CLI's launch) the review says nothing of it.
    assert.equal((await reviewJob(named('launch-flow-signal'), deps))?.signal, undefined);
  });

  it('shows the review, asks about warnings, creates the job and tells the host, in that order', async () => {
    const calls: string[] = [];
    const ui: LaunchUi = {
      checking: (_job, run) => (calls.push('checking'), run()),
      review: async () => (calls.push('review'), 'launch'),
      confirmWarnings: async () => (calls.push('warnings'), true),
      launched: async (_job, arn) => void calls.push(`launched ${arn.split('/').pop()}`),
    };
    const result = await launchJob(named('launch-flow-lands'), deps, ui);
    assert.equal(result.launched, true, result.reason);
    assert.deepEqual(
      calls.filter((c) => c !== 'warnings'),
      ['checking', 'review', 'launched launch-flow-lands'],
    );
    const described = await describeJob(aws.sagemaker(), { jobName: 'launch-flow-lands', category: 'AgentRFT' });
    assert.equal(described.config?.AgentConfig?.BedrockAgentCoreConfig?.AgentRuntimeArn, RUNTIME);
  });

  it('creates nothing when the user goes back, closes the review or declines the warnings', async () => {
    const back = await launchJob(named('launch-flow-back'), deps, { review: async () => 'back' });
    assert.deepEqual([back.launched, back.reason], [false, 'back']);
    const closed = await launchJob(named('launch-flow-closed'), deps, { review: async () => 'cancel' }, back.review);
    assert.deepEqual([closed.launched, closed.reason], [false, 'cancelled']);
    const warned = {
      ...back.review!,
      checks: [...back.review!.checks, { check: 'smoke' as const, level: 'warn' as const, message: 'Not smoke-tested.' }],
    };
    const declined = await launchJob(named('launch-flow-declined'), deps, { confirmWarnings: async () => false }, warned);
    assert.deepEqual([declined.launched, declined.reason], [false, 'declined']);
    await assert.rejects(describeJob(aws.sagemaker(), { jobName: 'launch-flow-back', category: 'AgentRFT' }));
  });

  it('blocks on a failed check and names it; a refused CreateJob keeps the service message', async () => {
    let blocked: string[] = [];
    const taken = await launchJob(named('wordle-gptoss20b-grpo-100steps'), deps, {
      blocked: (_job, failed) => void (blocked = failed.map((f) => f.check)),
    });
    assert.equal(taken.launched, false);
    assert.deepEqual(blocked, ['jobName']);
    const passing = { ...taken.review!, checks: [] };
    let refused = '';
    const created = await launchJob(named('wordle-gptoss20b-grpo-100steps'), deps, { createFailed: (m) => (refused = m) }, passing);
    assert.equal(created.launched, false);
    assert.match(refused, /already exists/);
  });
});
