import { strict as assert } from 'node:assert';
import { mkdtempSync, readFileSync, writeFileSync } from 'node:fs';
import { createServer, type AddressInfo } from 'node:net';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { main } from '../../../src/cli';
import { findingOf } from '../../../src/cli/launchDeps';
import { AwsClients } from '../../../src/aws/clients';
import { explainerFor } from '../../../src/aws/errors';
import { createJob } from '../../../src/aws/sagemaker';
import { DocumentSchemas } from '../../../src/core/jobs/documentSchema';
import { buildEvaluationDocument } from '../../../src/core/jobs/document';
import { createJobRequest, newJobFile, parseJobFile, serializeJobFile, type JobFile } from '../../../src/core/jobs/jobfile';
import { DEFAULT_PRICING } from '../../../src/core/jobs/pricing';
import { startEmulator, type Emulator } from '../../../src/emulator/server';
import { reviewJob, type LaunchDeps } from '../../../src/services/launch/launch';
import { ModelCatalog } from '../../../src/services/launch/modelCatalog';
import { ceiling } from '../../host/lib/ceiling';

const demo = parseJobFile(
  readFileSync(path.resolve(__dirname, '../../fixtures/demo-workspace/wordle-training.mtrl.json'), 'utf8'),
).jobFile!;
const RUNTIME = 'arn:aws:bedrock-agentcore:us-east-1:111122223333:runtime/wordle_agent-AbCdEf1234';
const MODEL = 'arn:aws:sagemaker:us-east-1:aws:hub-content/SageMakerPublicHub/Model/openai-reasoning-gpt-oss-20b';

async function run(...argv: string[]): Promise<{ code: number; out: string; err: string }> {
  let out = '';
  let err = '';
  const code = await main(argv, { out: (t) => void (out += t + '\n'), err: (t) => void (err += t + '\n'), stdin: () => [] });
  return { code, out, err };
}

describe('mtrl launch (emulator, real SDK over HTTP)', function () {
  this.timeout(ceiling(60_000));
  let emulator: Emulator;
  let dir: string;
  const saved = { id: process.env.AWS_ACCESS_KEY_ID, secret: process.env.AWS_SECRET_ACCESS_KEY };

  /** A job file on disk: the demo training job with other hyperparameters, or any job file. */
  const file = (name: string, job: JobFile): string => {
    const at = path.join(dir, `${name}.mtrl.json`);
    writeFileSync(at, serializeJobFile({ ...job, JobName: name }));
    return at;
  };
  const training = (name: string, hyperparameters: Record<string, string>): string =>
    file(name, {
      ...demo,
      JobConfigDocument: {
        ...demo.JobConfigDocument,
        TrainingConfig: { ...demo.JobConfigDocument.TrainingConfig, HyperParameters: hyperparameters },
      },
    });
  const json = (out: string) =>
    JSON.parse(out) as {
      findings: { code: string; severity: string; message: string }[];
      request: { JobConfigDocument: string };
      settings: { name: string; value: string; source: string }[];
      estimate: unknown;
      launched: boolean;
      jobArn?: string;
    };

  before(async () => {
    process.env.AWS_ACCESS_KEY_ID = 'test';
    process.env.AWS_SECRET_ACCESS_KEY = 'test';
    emulator = await startEmulator({});
    dir = mkdtempSync(path.join(tmpdir(), 'mtrl-launch-cli-'));
  });

  after(async () => {
    await emulator.close();
    if (saved.id === undefined) delete process.env.AWS_ACCESS_KEY_ID;
    else process.env.AWS_ACCESS_KEY_ID = saved.id;
    if (saved.secret === undefined) delete process.env.AWS_SECRET_ACCESS_KEY;
    else process.env.AWS_SECRET_ACCESS_KEY = saved.secret;
  });

  it('max_steps_off_policy "0" and adam_beta2 "0.95" pass with no unknown-setting finding, and the emulator creates the job with --yes', async () => {
    const at = training('launch-cli-offpolicy', { max_steps_off_policy: '0', adam_beta2: '0.95', sampling_max_tokens: '8192' });
    const checked = await run('launch', at, '--json', '--endpoint', emulator.url);
    assert.equal(checked.code, 0, checked.out + checked.err);
    const report = json(checked.out);
    const hp = report.findings.find((f) => f.code === 'hyperparameters')!;
    assert.equal(hp.severity, 'info', hp.message);
    assert.doesNotMatch(hp.message, /Unknown/);
    assert.equal(report.launched, false, 'nothing is created without --yes');
    assert.deepEqual(JSON.parse(report.request.JobConfigDocument).TrainingConfig.HyperParameters, {
      max_steps_off_policy: '0',
      adam_beta2: '0.95',
      sampling_max_tokens: '8192',
    });
    assert.ok(!emulator.world.jobs.has(emulator.world.jobKey('AgentRFT', 'launch-cli-offpolicy', 'us-east-1')));
    assert.ok(report.settings.some((s) => s.name === 'max_steps_off_policy' && s.value === '0' && s.source === 'your file'));

    const launched = await run('launch', at, '--json', '--yes', '--endpoint', emulator.url);
    assert.equal(launched.code, 0, launched.out + launched.err);
    assert.equal(json(launched.out).jobArn, 'arn:aws:sagemaker:us-east-1:111122223333:job/AgentRFT/launch-cli-offpolicy');
    assert.ok(emulator.world.jobs.has(emulator.world.jobKey('AgentRFT', 'launch-cli-offpolicy', 'us-east-1')));
  });

  it('a job file with Notifications: --json shows the topic check and the rule the launch makes; --yes makes it and tags the job', async () => {
    const topic = 'arn:aws:sns:us-east-1:111122223333:mtrl-job-alerts';
    const at = file('launch-cli-notify', { ...demo, Notifications: { SnsTopicArn: topic, Events: ['Failed'] } });
    const r = await run('launch', at, '--json', '--yes', '--endpoint', emulator.url);
    assert.equal(r.code, 0, r.out + r.err);
    const report = JSON.parse(r.out) as ReturnType<typeof json> & { notifications: { rule: string; events: string[]; note: string } };
    const line = report.findings.find((f) => f.code === 'notifications')!;
    assert.equal(line.severity, 'info', line.message);
    assert.match(line.message, /Failed → arn:aws:sns:us-east-1:111122223333:mtrl-job-alerts/);
    assert.match(report.notifications.rule, /^sm-pysdk-job-notif-[0-9a-f]{8}$/);
    assert.deepEqual(report.notifications.events, ['Failed']);
    assert.match(report.notifications.note, /may never fire/);
    assert.ok(emulator.world.eventRules.has(`us-east-1/default/${report.notifications.rule}`));
    const job = emulator.world.jobs.get(emulator.world.jobKey('AgentRFT', 'launch-cli-notify', 'us-east-1'))!;
    assert.deepEqual(
      job.tags.filter((t) => t.Key.startsWith('mtrl:notification')).map((t) => t.Key),
      ['mtrl:notification-topic', 'mtrl:notification-events', 'mtrl:notification-rule'],
    );
  });

  it('rollout_max_concurrency "128" is an error (exit 1, nothing created even with --yes), and the emulator refuses it too', async () => {
    const at = training('launch-cli-concurrency', { rollout_max_concurrency: '128' });
    const r = await run('launch', at, '--json', '--yes', '--endpoint', emulator.url);
    assert.equal(r.code, 1, r.out + r.err);
    const hp = json(r.out).findings.find((f) => f.code === 'hyperparameters')!;
    assert.equal(hp.severity, 'error');
    assert.match(hp.message, /rollout_max_concurrency must be in \[32, 96\]; got 128/);
    assert.equal(json(r.out).launched, false);
    // The service itself: CreateJob answers ValidationException.
    const aws = new AwsClients(() => ({ region: 'us-east-1', endpoint: emulator.url }));
    const job = parseJobFile(readFileSync(at, 'utf8')).jobFile!;
    await assert.rejects(createJob(aws.sagemaker(), createJobRequest(job)), /rollout_max_concurrency must be in \[32, 96\]/);
    aws.reset();
  });

  it("51 hyperparameters and a value outside the SDK's character rule are error findings; the review names both model package groups", async () => {
    const many = Object.fromEntries(Array.from({ length: 51 }, (_, i) => [`custom_${i}`, '1']));
    const counted = await run('launch', training('launch-cli-51', many), '--json', '--endpoint', emulator.url);
    assert.equal(counted.code, 1, counted.out + counted.err);
    const count = json(counted.out).findings.find((f) => f.code === 'hyperparameters')!;
    assert.equal(count.severity, 'error');
    assert.match(count.message, /51 hyperparameters are set; the SDK's limit is 50/);

    const chars = await run('launch', training('launch-cli-chars', { learning_rate: '2e+1' }), '--json', '--endpoint', emulator.url);
    assert.equal(chars.code, 1, chars.out + chars.err);
    const bad = json(chars.out).findings.find((f) => f.code === 'hyperparameters')!;
    assert.equal(bad.severity, 'error');
    assert.match(bad.message, /learning_rate "2e\+1" contains the character "\+"/);
    const groups = json(chars.out).findings.find((f) => f.code === 'modelPackages')!;
    assert.match(
      groups.message,
      /output openai-reasoning-gpt-oss-20b-mtrl-mpg \(SDK default\), checkpoints openai-reasoning-gpt-oss-20b-mtrl-checkpoint-mpg/,
    );
  });

  it("a new evaluation's request carries no invented defaults, and its stopping condition is 86,400 s", async () => {
    const evaluation = newJobFile(
      { name: 'launch-cli-eval', category: 'AgentRFTEvaluation', region: 'us-east-1', roleArn: demo.RoleArn },
      buildEvaluationDocument({
        runtimeArn: RUNTIME,
        evaluationUri: 's3://mtrl-demo/wordle/val.jsonl',
        outputPath: 's3://mtrl-demo/eval-output',
        baseModelArn: MODEL,
        mlflowArn: 'arn:aws:sagemaker:us-east-1:111122223333:mlflow-app/app-wordle01',
        hyperparameters: {},
      }),
    );
    const r = await run('launch', file('launch-cli-eval', evaluation), '--json', '--endpoint', emulator.url);
    const report = json(r.out);
    const document = JSON.parse(report.request.JobConfigDocument);
    assert.deepEqual(document.EvaluationConfig.HyperParameters, {});
    assert.deepEqual(document.StoppingCondition, { MaxRuntimeInSeconds: 86400 });
    assert.equal(document.OutputDataConfig.MlflowConfig.MlflowExperimentName, 'mtrl-eval-openai-reasoning-gpt-oss-20b');
    const setting = (name: string) => report.settings.find((s) => s.name === name);
    assert.deepEqual(setting('temperature'), { name: 'temperature', value: '0', source: 'service default' });
    assert.deepEqual(setting('rollout_max_concurrency'), { name: 'rollout_max_concurrency', value: '96', source: 'service default' });
    assert.equal(setting('StoppingCondition.MaxRuntimeInSeconds')?.source, 'SDK default');
    assert.equal(report.findings.find((f) => f.code === 'schema')?.severity, 'info', 'the emulator schema accepts it');
  });

  it("gives the same findings as the editor's review of the same file (the one reviewJob, the launcher's inputs)", async () => {
    const at = training('launch-cli-same', { max_steps: '10', group_size: '64' });
    const cli = json((await run('launch', at, '--json', '--endpoint', emulator.url)).out);
    // The editor's Launcher passes these (src/features/launch/launcher.ts) with no models or prices set and no smoke test kept.
    const aws = new AwsClients(() => ({ region: 'us-east-1', endpoint: emulator.url }));
    const editor: LaunchDeps = {
      aws,
      schemas: new DocumentSchemas(),
      models: new ModelCatalog(aws, () => []),
      explain: explainerFor(() => aws.current),
      pricing: () => DEFAULT_PRICING,
      smokeResults: () => ({}),
      log: () => undefined,
      lambdaSmoke: true,
    };
    const review = await reviewJob(parseJobFile(readFileSync(at, 'utf8')).jobFile!, editor);
    aws.reset();
    assert.ok(review);
    assert.deepEqual(cli.findings, review.checks.map(findingOf));
    assert.ok(
      cli.findings.some((f) => f.severity === 'error'),
      'group_size 64 is out of range in both',
    );
    assert.deepEqual(cli.estimate, review.estimate ?? null);
  });

  it('prints the checks, the settings and the estimate as text; a broken file is exit 1 with its problems; no file is a usage error', async () => {
    const at = training('launch-cli-text', {});
    const r = await run('launch', at, '--endpoint', emulator.url);
    assert.equal(r.code, 0, r.out + r.err);
    assert.match(r.out, /^Pre-flight of launch-cli-text \(AgentRFT, us-east-1\):/);
    assert.match(r.out, /Service defaults: .*max_steps_off_policy 3/);
    assert.match(r.out, /Not launched: run again with --yes/);
    const broken = path.join(dir, 'broken.mtrl.json');
    writeFileSync(broken, '{"JobName": "x"}');
    const b = await run('launch', broken, '--json');
    assert.equal(b.code, 1);
    assert.ok(json(b.out).findings.every((f) => f.code === 'jobFile' && f.severity === 'error'));
    assert.equal((await run('launch')).code, 2);
    assert.match((await run('launch', path.join(dir, 'missing.mtrl.json'))).err, /Cannot read/);
  });

  it('AWS out of reach is exit 2 with the sentence, not a pre-flight verdict on the file', async () => {
    const closed = createServer();
    await new Promise<void>((resolve) => closed.listen(0, '127.0.0.1', resolve));
    const { port } = closed.address() as AddressInfo;
    await new Promise<void>((resolve) => closed.close(() => resolve()));
    const r = await run('launch', training('launch-cli-offline', {}), '--json', '--endpoint', `http://127.0.0.1:${port}`);
    assert.equal(r.code, 2, r.out + r.err);
    assert.match(r.err, new RegExp(`cannot reach http://127\\.0\\.0\\.1:${port}`));
    assert.equal(r.out, '', 'no findings printed: nothing was checked');
  });
});
