import { strict as assert } from 'node:assert';
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { parseS3Uri, getObject, listObjectsV2 } from '../../../src/aws/s3';
import { listJobs } from '../../../src/aws/sagemaker';
import { main } from '../../../src/cli';
import { ManualClock } from '../../../src/emulator/clock';
import { SEEDED } from '../../../src/emulator/seed';
import { sampleRows } from '../../../src/core/signal/sampleRows';
import { collect, withEmulator } from '../emulator/helpers';
import type { AwsClients } from '../../../src/aws/clients';
import { ceiling } from '../../host/lib/ceiling';

async function mtrl(...args: string[]) {
  const out: string[] = [];
  const err: string[] = [];
  const code = await main(args, { out: (t) => out.push(t), err: (t) => err.push(t), stdin: () => [] });
  return { code, out: out.join('\n'), err: err.join('\n') };
}

async function text(aws: AwsClients, uri: string): Promise<string> {
  const chunks = await collect(getObject(aws.s3(), parseS3Uri(uri)!));
  return Buffer.concat(chunks).toString('utf8');
}

async function keys(aws: AwsClients, prefix: string): Promise<string[]> {
  return (await collect(listObjectsV2(aws.s3(), 'mtrl-demo', prefix))).map((o) => o.Key!).sort();
}

const evaluations = async (aws: AwsClients) =>
  (await collect(listJobs(aws.sagemaker(), { JobCategory: 'AgentRFTEvaluation' }))).map((j) => j.JobName);

interface Kept {
  status: string;
  jobName: string;
  rows: number;
  groupSize: number;
  sample: string;
  error?: string;
  estimate?: { low: number };
  tokensPerRollout?: { prefill: number; sample: number };
  plannedRollouts?: number;
  projectedCost?: { rollouts: number; low: number; high: number };
  report?: { rollouts: number; groups: number; groupSize: number; zeroAdvantage: { share: number } };
}

describe('mtrl signal --launch / --check: the cloud signal check on the emulator (real SDK over HTTP)', function () {
  this.timeout(ceiling(120_000));
  let store: string;
  beforeEach(() => (store = mkdtempSync(path.join(tmpdir(), 'mtrl-signal-checks-'))));
  afterEach(() => rmSync(store, { recursive: true, force: true }));

  const launch = (endpoint: string, data: string, runtime: string, ...more: string[]) =>
    mtrl(
      'signal',
      '--launch',
      '--endpoint',
      endpoint,
      '--data',
      data,
      '--runtime',
      runtime,
      '--reward',
      'arn:aws:lambda:us-east-1:111122223333:function:reward:3',
      '--role',
      SEEDED.jobRole,
      '--mlflow-app',
      SEEDED.mlflowApp,
      '--store',
      store,
      ...more,
    );

  it('routine refund tickets: the estimate without --yes launches nothing; --yes samples beside the data, runs, and the kept check goes running → done with ≥ 95 % zero advantage', async () => {
    const clock = new ManualClock();
    await withEmulator({ clock, history: false }, async (emulator, aws) => {
      const before = await text(aws, SEEDED.refundRoutine);
      const beforeKeys = await keys(aws, 'refund/');
      const jobsBefore = await evaluations(aws);

      const asked = await launch(emulator.url, SEEDED.refundRoutine, SEEDED.refundRuntime, '--rows', '16', '--group-size', '4');
      assert.equal(asked.code, 2, asked.err);
      assert.match(asked.err, /Cost: \$\d+\.\d\d – \$\d+\.\d\d in tokens/);
      assert.match(asked.err, /run again with --yes/);
      assert.deepEqual(await evaluations(aws), jobsBefore, 'no job without confirmation');
      assert.deepEqual(await keys(aws, 'refund/'), beforeKeys, 'no object left without confirmation');
      assert.deepEqual(JSON.parse((await mtrl('signal', '--check', '--store', store, '--json')).out), [], 'nothing kept');

      const launched = await launch(
        emulator.url,
        SEEDED.refundRoutine,
        SEEDED.refundRuntime,
        '--rows',
        '16',
        '--group-size',
        '4',
        '--seed',
        '3',
        '--steps',
        '10',
        '--batch-size',
        '32',
        '--yes',
        '--json',
      );
      assert.equal(launched.code, 0, launched.err);
      const result = JSON.parse(launched.out) as {
        launched: boolean;
        jobName: string;
        sample: { uri: string; rows: number };
        job: {
          JobConfigDocument: { EvaluationConfig: { HyperParameters: Record<string, string> }; OutputDataConfig: { S3OutputPath: string } };
        };
      };
      assert.ok(result.launched);
      assert.equal(result.job.JobConfigDocument.EvaluationConfig.HyperParameters.eval_group_size, '4');
      assert.equal(result.job.JobConfigDocument.OutputDataConfig.S3OutputPath, 's3://mtrl-demo/refund/mtrl-signal-check/output/');
      assert.match(result.sample.uri, /^s3:\/\/mtrl-demo\/refund\/mtrl-signal-check\/[0-9a-f]{16}\.jsonl$/);

      // The sampled rows are 16 of the dataset's own lines; the user's objects are untouched, the sample is the only new one.
      const sampled = (await text(aws, result.sample.uri)).trim().split('\n');
      assert.equal(sampled.length, 16);
      const original = before
        .trim()
        .split('\n')
        .map((l) => JSON.stringify(JSON.parse(l)));
      for (const line of sampled) assert.ok(original.includes(line), `${line} is a row of the dataset`);
      assert.deepEqual(
        sampled,
        sampleRows(original, 16, '3').map((p) => p.row),
        'the rows mtrl signal --local --seed 3 would play',
      );
      assert.equal(await text(aws, SEEDED.refundRoutine), before);
      const added = (await keys(aws, 'refund/')).filter((k) => !beforeKeys.includes(k));
      assert.deepEqual(added, [parseS3Uri(result.sample.uri)!.key]);

      // The same seed again, not confirmed: the rows are the launched check's, so they stay.
      const again = await launch(
        emulator.url,
        SEEDED.refundRoutine,
        SEEDED.refundRuntime,
        '--rows',
        '16',
        '--group-size',
        '4',
        '--seed',
        '3',
      );
      assert.equal(again.code, 2, again.err);
      assert.equal((await text(aws, result.sample.uri)).trim().split('\n').length, 16);

      const running = JSON.parse((await mtrl('signal', '--check', '--store', store, '--endpoint', emulator.url, '--json')).out) as Kept[];
      assert.equal(running.length, 1);
      assert.equal(running[0].status, 'running');
      assert.equal(running[0].jobName, result.jobName);
      assert.ok(running[0].estimate && running[0].estimate.low > 0);

      clock.advance(24 * 3_600_000);
      const checked = await mtrl('signal', '--check', '--store', store, '--endpoint', emulator.url, '--json');
      assert.equal(checked.code, 0, checked.err);
      const [done] = JSON.parse(checked.out) as Kept[];
      assert.equal(done.status, 'done', done.error);
      assert.equal(done.report?.groupSize, 4);
      assert.equal(done.report?.groups, 16);
      assert.ok(done.report!.zeroAdvantage.share >= 0.95, `zero-advantage share ${done.report!.zeroAdvantage.share}`);
      // Tokens per rollout from the job's billable usage price the planned training job: 10 steps × 32 tickets × 4.
      assert.ok(done.tokensPerRollout!.prefill > 0 && done.tokensPerRollout!.sample > 0);
      assert.equal(done.projectedCost?.rollouts, 1280);
      assert.ok(done.projectedCost!.low > 0 && done.projectedCost!.high > done.projectedCost!.low);
      const shown = await mtrl('signal', '--check', '--store', store, '--endpoint', emulator.url);
      assert.match(
        shown.out,
        /done .*16 rows × 4.*\n {4}zero-advantage groups \d+\/16 = \d+\.\d %; \d+ % of tasks are solved by every rollout/,
      );
    });
  });

  it('Wordle, from the planned training job file: the evaluation plays the sampled words with its group_size and sampling', async () => {
    const clock = new ManualClock();
    await withEmulator({ clock, history: false }, async (emulator) => {
      const training = path.join(store, 'wordle.mtrl.json');
      writeFileSync(
        training,
        JSON.stringify({
          JobName: 'wordle-planned',
          JobCategory: 'AgentRFT',
          Region: 'us-east-1',
          RoleArn: SEEDED.jobRole,
          JobConfigSchemaVersion: '1.0.0',
          JobConfigDocument: {
            AgentConfig: { BedrockAgentCoreConfig: { AgentRuntimeArn: SEEDED.runtime, Qualifier: 'DEFAULT' } },
            InputDataConfig: [{ ChannelName: 'train', DataSource: { S3DataSource: { S3DataType: 'S3Prefix', S3Uri: SEEDED.train } } }],
            OutputDataConfig: { S3OutputPath: 's3://mtrl-demo/output' },
            TrainingConfig: {
              BaseModelArn: 'arn:aws:sagemaker:us-east-1:aws:hub-content/SageMakerPublicHub/Model/openai-reasoning-gpt-oss-20b',
              MlflowConfig: { MlflowResourceArn: SEEDED.mlflowApp, MlflowExperimentName: 'wordle' },
              AcceptEula: true,
              HyperParameters: { group_size: '3', temperature: '0.8', sampling_max_tokens: '8192' },
            },
          },
        }),
      );
      const args = [
        'signal',
        '--launch',
        '--training',
        training,
        '--rows',
        '10',
        '--reward',
        'wordle-reward-v2',
        '--endpoint',
        emulator.url,
      ];
      const launched = await mtrl(...args, '--store', store, '--yes', '--json');
      assert.equal(launched.code, 0, launched.err);
      const hp = (
        JSON.parse(launched.out) as { job: { JobConfigDocument: { EvaluationConfig: { HyperParameters: Record<string, string> } } } }
      ).job.JobConfigDocument.EvaluationConfig.HyperParameters;
      assert.deepEqual([hp.eval_group_size, hp.temperature, hp.sampling_max_tokens], ['3', '0.8', '8192']);
      clock.advance(24 * 3_600_000);
      const [done] = JSON.parse((await mtrl('signal', '--check', '--store', store, '--endpoint', emulator.url, '--json')).out) as Kept[];
      assert.equal(done.status, 'done', done.error);
      assert.equal(done.report?.rollouts, 30);
      assert.equal(done.report?.groups, 10);
      assert.equal(done.report?.groupSize, 3);
      // The evaluation left one MLflow trace per rollout, as the refund desk's do.
      const traces = await mtrl(
        'rollouts',
        '--job',
        done.jobName,
        '--evaluation',
        '--from',
        'traces',
        '--endpoint',
        emulator.url,
        '--transcripts',
      );
      assert.equal(traces.code, 0, traces.err);
      assert.equal(traces.out.trim().split('\n').length, 30);
      // The planned job's rollouts from its own arithmetic over the whole dataset: whole steps of 128 words × 3.
      assert.ok(done.plannedRollouts! > 0 && done.plannedRollouts! % (128 * 3) === 0, `${done.plannedRollouts}`);
      assert.equal(done.projectedCost?.rollouts, done.plannedRollouts);
    });
  });

  it('a job that fails is kept failed with the service’s reason; a dataset that is not there launches nothing', async () => {
    const clock = new ManualClock();
    await withEmulator({ clock, history: false }, async (emulator, aws) => {
      const launched = await launch(
        emulator.url,
        SEEDED.refundRoutine,
        SEEDED.errorStatusRuntime,
        '--rows',
        '4',
        '--group-size',
        '2',
        '--yes',
      );
      assert.equal(launched.code, 0, launched.err);
      clock.advance(24 * 3_600_000);
      const checked = await mtrl('signal', '--check', '--store', store, '--endpoint', emulator.url, '--json');
      const [failed] = JSON.parse(checked.out) as Kept[];
      assert.equal(failed.status, 'failed');
      assert.match(
        failed.error!,
        /^Evaluation job mtrl-signal-check-\d{14} failed: AlgorithmError: The agent signaled that the trajectory failed/,
      );

      const jobs = await evaluations(aws);
      const missing = await launch(
        emulator.url,
        's3://mtrl-demo/refund/nope.jsonl',
        SEEDED.refundRuntime,
        '--rows',
        '4',
        '--group-size',
        '2',
        '--yes',
      );
      assert.equal(missing.code, 2);
      assert.match(
        missing.err,
        /nothing launched: There is no object at s3:\/\/mtrl-demo\/refund\/nope\.jsonl: check the training data's URI/,
      );
      assert.deepEqual(await evaluations(aws), jobs);
    });
  });

  it('usage: each missing or wrong flag is a sentence naming it, before anything is read or written', async () => {
    const cases: [string[], RegExp][] = [
      [['--rows', '4'], /--reward names the reward version/],
      [['--rows', '4', '--reward', 'missing_reward.py'], /--reward missing_reward\.py: no such file/],
      [['--rows', '4', '--reward', 'r:1', '--runtime', SEEDED.refundRuntime, '--role', SEEDED.jobRole], /--launch needs --data s3:\/\/…/],
      [['--rows', '4', '--reward', 'r:1', '--data', SEEDED.refundRoutine, '--runtime', SEEDED.refundRuntime], /--launch needs --role ARN/],
      [['--rows', '4', '--reward', 'r:1', '--training', path.join(store, 'none.mtrl.json')], /cannot read .*none\.mtrl\.json/],
      [['--rows', 'x', '--reward', 'r:1'], /--rows takes a whole number ≥ 1, got 'x'/],
      [['--check'], /give --launch or --check, not both/],
    ];
    for (const [args, expected] of cases) {
      const { code, err } = await mtrl('signal', '--launch', '--store', store, ...args);
      assert.equal(code, 2, err);
      assert.match(err, expected);
    }
  });
});
