import { strict as assert } from 'node:assert';
import { readFileSync } from 'node:fs';
import path from 'node:path';
import { AwsClients } from '../../../../src/aws/clients';
import { describeAwsError, explainerFor } from '../../../../src/aws/errors';
import { createJob, describeJob, listJobs } from '../../../../src/aws/sagemaker';
import { getObject, upload } from '../../../../src/aws/s3';
import { buildEvaluationDocument } from '../../../../src/core/jobs/document';
import { DocumentSchemas } from '../../../../src/core/jobs/documentSchema';
import { createJobRequest, jobFileFromDescription, parseJobFile, serializeJobFile, type JobFile } from '../../../../src/core/jobs/jobfile';
import { STATIC_MODELS, baseModelArn, modelsInRegion, type BaseModel } from '../../../../src/core/jobs/models';
import { verdict } from '../../../../src/core/jobs/preflight';
import { DEFAULT_PRICING } from '../../../../src/core/jobs/pricing';
import { readDatasets } from '../../../../src/services/datasets/channels';
import { ModelCatalog } from '../../../../src/services/launch/modelCatalog';
import { runPreflight, type PreflightDeps } from '../../../../src/services/launch/preflight';
import { buildReview } from '../../../../src/services/launch/review';
import { ownTokenAverages } from '../../../../src/services/launch/tokenHistory';
import { startEmulator, type Emulator } from '../../../../src/emulator/server';
import { ceiling } from '../../../host/lib/ceiling';

const demoText = readFileSync(path.resolve(__dirname, '../../../fixtures/demo-workspace/wordle-training.mtrl.json'), 'utf8');
const demo = parseJobFile(demoText).jobFile!;
const RUNTIME = 'arn:aws:bedrock-agentcore:us-east-1:111122223333:runtime/wordle_agent-AbCdEf1234';

describe('launch against the emulator (real SDK over HTTP)', function () {
  this.timeout(ceiling(30_000));
  let emulator: Emulator;
  let aws: AwsClients;
  let deps: PreflightDeps;
  const saved = { id: process.env.AWS_ACCESS_KEY_ID, secret: process.env.AWS_SECRET_ACCESS_KEY };
  const named = (name: string): JobFile => ({ ...demo, JobName: name });
  const levels = (results: { check: string; level: string }[]) => Object.fromEntries(results.map((r) => [r.check, r.level]));

  before(async () => {
    process.env.AWS_ACCESS_KEY_ID = 'test';
    process.env.AWS_SECRET_ACCESS_KEY = 'test';
    emulator = await startEmulator({});
    aws = new AwsClients(() => ({ region: 'us-east-1', endpoint: emulator.url }));
    deps = {
      aws,
      schemas: new DocumentSchemas(),
      models: async (region) => modelsInRegion(STATIC_MODELS, region),
      datasets: (channels, batch, signal) =>
        readDatasets(
          aws.s3(),
          channels,
          batch,
          explainerFor(() => aws.current),
          signal,
        ),
      smokeResults: { [RUNTIME]: { ok: true, at: '2026-11-29T10:00:00Z', summary: 'reward -1.5, Could not find job' } },
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

  it('passes the demo job file, then the launch lands and appears in ListJobs', async () => {
    const job = named('launch-test-lands');
    const { results, rows } = await runPreflight(job, deps);
    assert.notEqual(verdict(results), 'fail', JSON.stringify(results, null, 1));
    assert.deepEqual(levels(results), {
      jobName: 'pass',
      schema: 'pass',
      hyperparameters: 'pass',
      datasets: 'warn',
      role: 'pass',
      runtime: 'pass',
      model: 'pass',
      modelPackages: 'pass',
      smoke: 'pass',
      quota: 'pass',
      mlflow: 'pass',
    });
    assert.ok(rows.train! >= 128, `train rows ${rows.train}`);
    const arn = await createJob(aws.sagemaker('us-east-1'), createJobRequest(job));
    assert.equal(arn, 'arn:aws:sagemaker:us-east-1:111122223333:job/AgentRFT/launch-test-lands');
    const names: string[] = [];
    for await (const j of listJobs(aws.sagemaker(), { JobCategory: 'AgentRFT' })) names.push(j.JobName!);
    assert.ok(names.includes('launch-test-lands'), names.join(', '));
    // Export of the launched job gives back the file exactly (ServiceOutput dropped).
    const exported = jobFileFromDescription(
      await describeJob(aws.sagemaker(), { jobName: job.JobName, category: 'AgentRFT' }),
      'us-east-1',
    );
    assert.equal(serializeJobFile(exported), serializeJobFile(job));
    // The name is now taken: a second launch under it is caught before CreateJob.
    const again = await runPreflight(job, deps);
    assert.equal(levels(again.results).jobName, 'fail');
  });

  it('catches the wrong-trust role before CreateJob', async () => {
    const job = { ...named('launch-test-wrong-trust'), RoleArn: 'arn:aws:iam::111122223333:role/MtrlWrongTrustRole' };
    const { results } = await runPreflight(job, deps);
    const role = results.find((r) => r.check === 'role')!;
    assert.equal(role.level, 'fail');
    assert.match(role.message, /trusts sagemaker\.amazonaws\.com; the job needs job\.sagemaker\.amazonaws\.com/);
    assert.equal(verdict(results), 'fail');
  });

  it('surfaces the service message for an invalid document, and the pre-flight schema check catches it first', async () => {
    const document = buildEvaluationDocument({
      runtimeArn: RUNTIME,
      evaluationUri: 's3://mtrl-demo/wordle/val.jsonl',
      outputPath: 's3://mtrl-demo/eval',
      baseModelArn: baseModelArn('us-east-1', 'openai-reasoning-gpt-oss-20b'),
      hyperparameters: {},
    });
    const hp = (document.EvaluationConfig as { HyperParameters: Record<string, string> }).HyperParameters;
    delete hp.temperature;
    hp.sampling_temperature = '1.0';
    const job: JobFile = { ...named('launch-test-sdk-names'), JobCategory: 'AgentRFTEvaluation', JobConfigDocument: document };
    const { results } = await runPreflight(job, deps);
    const schema = results.find((r) => r.check === 'schema')!;
    assert.equal(schema.level, 'fail');
    assert.match(schema.message, /sampling_temperature/);
    assert.match(
      results.find((r) => r.check === 'hyperparameters')!.message,
      /sampling_temperature is the SDK evaluator.s name, which the service may drop or refuse; write the flat name temperature/,
    );
    const error = await createJob(aws.sagemaker(), createJobRequest(job)).then(
      () => undefined,
      (e: unknown) => e,
    );
    assert.ok(error, 'CreateJob accepted a document the service rejects');
    const sentence = describeAwsError(error, { action: 'Creating job' });
    assert.match(sentence, /sampling_temperature/);
    assert.match(sentence, /temperature/);
  });

  it('launches an evaluation of a trained adapter with the flat names, warning while another evaluation runs', async () => {
    const trained = await describeJob(aws.sagemaker(), { jobName: 'wordle-gptoss20b-grpo-100steps', category: 'AgentRFT' });
    const adapter = trained.config?.ServiceOutput?.OutputModelPackageArn;
    assert.ok(adapter, 'the seeded completed job has no adapter');
    const document = buildEvaluationDocument({
      runtimeArn: RUNTIME,
      evaluationUri: 's3://mtrl-demo/wordle/val.jsonl',
      outputPath: 's3://mtrl-demo/eval',
      baseModelArn: baseModelArn('us-east-1', 'openai-reasoning-gpt-oss-20b'),
      hyperparameters: { sampling_max_tokens: '8192', eval_group_size: '4', pass_k_values: '[1,2,4]' },
      adapterModelPackageArn: adapter,
      mlflowArn: 'arn:aws:sagemaker:us-east-1:111122223333:mlflow-app/app-wordle01',
    });
    const first: JobFile = { ...named('launch-test-eval-1'), JobCategory: 'AgentRFTEvaluation', JobConfigDocument: document };
    const checked = await runPreflight(first, deps);
    assert.notEqual(verdict(checked.results), 'fail', JSON.stringify(checked.results, null, 1));
    assert.equal(levels(checked.results).schema, 'pass');
    assert.equal(checked.rows.evaluation, 128);
    await createJob(aws.sagemaker(), createJobRequest(first));
    const second = await runPreflight({ ...first, JobName: 'launch-test-eval-2' }, deps);
    const evaluations = second.results.find((r) => r.check === 'evaluations')!;
    assert.equal(evaluations.level, 'warn');
    assert.match(evaluations.message, /launch-test-eval-1 is still running/);
  });

  it('offers the static models per region when the hub does not answer, with the setting on top', async () => {
    let overrides: BaseModel[] = [];
    const catalog = new ModelCatalog(aws, () => overrides);
    assert.deepEqual(
      (await catalog.offered('us-east-1')).map((m) => m.id),
      ['openai-reasoning-gpt-oss-20b', 'nova-textgeneration-lite-v2'],
    );
    overrides = [{ id: 'google-gemma-4-31b-it', name: 'Gemma 4 31B', regions: ['us-west-2'] }];
    assert.deepEqual(
      (await catalog.offered('us-west-2')).map((m) => m.id),
      ['openai-reasoning-gpt-oss-20b', 'nova-textgeneration-lite-v2', 'huggingface-vlm-qwen3-6-27b', 'google-gemma-4-31b-it'],
    );
  });

  it('fails datasets that overlap, are missing, or are too small', async () => {
    let seeded = '';
    for await (const chunk of getObject(aws.s3(), { bucket: 'mtrl-demo', key: 'wordle/train.jsonl' }))
      seeded += Buffer.from(chunk).toString('utf8');
    const train = seeded.split('\n').filter(Boolean);
    await upload(aws.s3(), { bucket: 'mtrl-demo', key: 'tests/overlap-val.jsonl' }, train.slice(0, 5).join('\n') + '\n');
    await upload(aws.s3(), { bucket: 'mtrl-demo', key: 'tests/small-train.jsonl' }, train.slice(0, 10).join('\n') + '\n');
    const overlap = await readDatasets(
      aws.s3(),
      { train: 's3://mtrl-demo/wordle/train.jsonl', validation: 's3://mtrl-demo/tests/overlap-val.jsonl' },
      128,
      explainerFor(() => aws.current),
    );
    assert.ok(overlap.overlap && overlap.overlap > 0, JSON.stringify(overlap));
    const missing = await readDatasets(
      aws.s3(),
      { train: 's3://mtrl-demo/tests/none.jsonl' },
      128,
      explainerFor(() => aws.current),
    );
    assert.ok(missing.facts[0].unreadable, JSON.stringify(missing.facts));
    const small = await readDatasets(
      aws.s3(),
      { train: 's3://mtrl-demo/tests/small-train.jsonl' },
      128,
      explainerFor(() => aws.current),
    );
    assert.equal(small.facts[0].rows, 10);
  });

  it('names a channel compressed otherwise than gzip, by its name or by its bytes, or Arrow read by byte ranges, before any row is counted', async () => {
    const zst = readFileSync(path.resolve(__dirname, '../../../fixtures/datasets/writers/others/pandas.jsonl.zst'));
    await upload(aws.s3(), { bucket: 'mtrl-demo', key: 'tests/train.jsonl.zst' }, zst);
    await upload(aws.s3(), { bucket: 'mtrl-demo', key: 'tests/zst-named-plain/train.jsonl' }, zst);
    const read = (uri: string) =>
      readDatasets(
        aws.s3(),
        { train: uri },
        128,
        explainerFor(() => aws.current),
      );
    const byName = await read('s3://mtrl-demo/tests/train.jsonl.zst');
    assert.match(byName.facts[0].unreadable ?? '', /compressed with Zstandard, .*`zstd -d FILE\.zst`/);
    const byBytes = await read('s3://mtrl-demo/tests/zst-named-plain/train.jsonl');
    assert.deepEqual(byBytes.facts[0].errors.length, 1, JSON.stringify(byBytes.facts));
    assert.match(byBytes.facts[0].errors[0], /compressed with Zstandard/);
    // Parquet is read by byte ranges: its first bytes are fetched to tell what the file is instead.
    const feather = readFileSync(path.resolve(__dirname, '../../../fixtures/datasets/writers/others/pandas.feather'));
    await upload(aws.s3(), { bucket: 'mtrl-demo', key: 'tests/feather-named/train.parquet' }, feather);
    const arrow = await read('s3://mtrl-demo/tests/feather-named/train.parquet');
    assert.match(arrow.facts[0].errors.join(), /The file is Arrow, .*`df\.to_parquet\("train\.parquet"\)`/);
  });

  it('estimates cost from the user own completed jobs of the same model', async () => {
    const own = await ownTokenAverages(aws.sagemaker(), 'AgentRFT', 'openai-reasoning-gpt-oss-20b');
    assert.ok(own.length >= 1);
    assert.match(own[0].source, /wordle-gptoss20b-grpo-100steps/);
    const review = buildReview(demo, [], { train: 640, validation: 128 }, DEFAULT_PRICING['openai-reasoning-gpt-oss-20b'], own);
    assert.ok(review.estimate && review.estimate.low > 0 && review.estimate.high >= review.estimate.low);
    assert.match(review.arithmetic.join('\n'), /640 rows \/ batch 128 = 5 steps per epoch/);
    assert.match(review.arithmetic.join('\n'), /128 × group 8 = 1,024 rollouts per step/);
  });
});

describe('pre-flight of a bring-your-own-agent Lambda (emulator, real Lambda SDK over HTTP)', function () {
  this.timeout(ceiling(30_000));
  let emulator: Emulator;
  let aws: AwsClients;
  const saved = { id: process.env.AWS_ACCESS_KEY_ID, secret: process.env.AWS_SECRET_ACCESS_KEY };
  const lambdaJob = (name: string): JobFile => ({
    ...demo,
    JobName: `lambda-${name}`,
    JobConfigDocument: {
      ...demo.JobConfigDocument,
      AgentConfig: { CustomAgentLambdaConfig: { LambdaArn: `arn:aws:lambda:us-east-1:111122223333:function:${name}` } },
    },
  });
  const agentChecks = async (name: string, lambdaSmoke: boolean) => {
    const deps: PreflightDeps = {
      aws,
      schemas: new DocumentSchemas(),
      models: async (region) => modelsInRegion(STATIC_MODELS, region),
      datasets: async () => ({ facts: [] }),
      lambdaSmoke,
    };
    const { results } = await runPreflight(lambdaJob(name), deps);
    return { runtime: results.find((r) => r.check === 'runtime')!, smoke: results.find((r) => r.check === 'smoke')! };
  };

  before(async () => {
    process.env.AWS_ACCESS_KEY_ID = 'test';
    process.env.AWS_SECRET_ACCESS_KEY = 'test';
    emulator = await startEmulator({ history: false });
    aws = new AwsClients(() => ({ region: 'us-east-1', endpoint: emulator.url }));
  });

  after(async () => {
    aws.reset();
    await emulator.close();
    if (saved.id === undefined) delete process.env.AWS_ACCESS_KEY_ID;
    else process.env.AWS_ACCESS_KEY_ID = saved.id;
    if (saved.secret === undefined) delete process.env.AWS_SECRET_ACCESS_KEY;
    else process.env.AWS_SECRET_ACCESS_KEY = saved.secret;
  });

  it('finds the function, its 900 s timeout, and on request smoke-calls it with the documented request: a documented answer passes', async () => {
    const { runtime, smoke } = await agentChecks('mtrl-agent-forwarder', true);
    assert.equal(runtime.level, 'pass', runtime.message);
    assert.match(runtime.message, /timeout 900 s/);
    assert.equal(smoke.level, 'pass', smoke.message);
    // The forwarder answers ValidationError "Could not find job" only when prompt, metadata.jobArn, metadata.rolloutId and inferenceParams are all there.
    assert.match(
      smoke.message,
      /ValidationError: Could not find job arn:aws:sagemaker:us-east-1:111122223333:job\/AgentRFT\/mtrl-preflight-smoke/,
    );
    assert.equal(emulator.requests.get('lambda:POST'), 1);
  });

  it('does not call the function unless asked; says so as a warning', async () => {
    const before = emulator.requests.get('lambda:POST') ?? 0;
    const { smoke } = await agentChecks('mtrl-agent-forwarder', false);
    assert.equal(smoke.level, 'warn');
    assert.match(smoke.message, /not smoke-called/);
    assert.equal(emulator.requests.get('lambda:POST') ?? 0, before);
  });

  it('warns about a timeout below 600 s, fails a function that raises or does not exist', async () => {
    const short = await agentChecks('mtrl-agent-short-timeout', false);
    assert.equal(short.runtime.level, 'warn');
    assert.match(short.runtime.message, /timeout is 60 s; the guide gives 600 s/);
    const raises = await agentChecks('mtrl-agent-raises', true);
    assert.equal(raises.smoke.level, 'fail');
    assert.match(raises.smoke.message, /raised on the documented request \(Unhandled\).*KeyError/);
    const missing = await agentChecks('mtrl-agent-missing', false);
    assert.equal(missing.runtime.level, 'fail');
    assert.match(missing.runtime.message, /could not be read: .*Function not found/);
  });

  it('a denied Lambda call reads "not checked (permission …)", never a pre-flight error', async () => {
    const { runtime, smoke } = await agentChecks('mtrl-agent-denied', true);
    assert.equal(runtime.level, 'warn');
    assert.match(runtime.message, /not checked \(permission: /);
    assert.equal(smoke.level, 'warn');
    assert.match(smoke.message, /Lambda smoke call: not checked \(permission: /);
  });
});
