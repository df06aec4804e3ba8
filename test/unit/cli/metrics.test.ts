import { strict as assert } from 'node:assert';
import { main } from '../../../src/cli';
import { createJob } from '../../../src/aws/sagemaker';
import { ManualClock } from '../../../src/emulator/clock';
import { SEEDED } from '../../../src/emulator/seed';
import { createTrainingJob, evaluationDocument, trainingDocument, withEmulator } from '../emulator/helpers';

async function run(...argv: string[]): Promise<{ code: number; out: string; err: string }> {
  let out = '';
  let err = '';
  const code = await main(argv, { out: (t) => void (out += t + '\n'), err: (t) => void (err += t + '\n'), stdin: () => [] });
  return { code, out, err };
}

const MINUTE = 60_000;

describe('mtrl metrics', () => {
  it('prints the per-step table, --json in the issue shape and --csv, by name or ARN, through the emulator', async () => {
    const clock = new ManualClock();
    await withEmulator({ clock, history: false }, async (emulator, aws) => {
      await createTrainingJob(
        aws,
        'cli-run',
        trainingDocument({ global_batch_size: '32', group_size: '2', max_steps: '4', val_every: '2' }),
      );
      const noMlflow = trainingDocument({ global_batch_size: '32', group_size: '2', max_steps: '2' });
      delete (noMlflow.TrainingConfig as Record<string, unknown>).MlflowConfig;
      await createTrainingJob(aws, 'no-mlflow', noMlflow);
      const evaluation = {
        ...evaluationDocument({ eval_group_size: '2', pass_k_values: '[1,2]' }),
        OutputDataConfig: {
          S3OutputPath: 's3://mtrl-demo/eval',
          MlflowConfig: { MlflowResourceArn: SEEDED.mlflowApp, MlflowExperimentName: 'evals', MlflowRunName: 'cli-eval' },
        },
      };
      await createJob(aws.sagemaker(), {
        JobName: 'cli-eval',
        JobCategory: 'AgentRFTEvaluation',
        RoleArn: SEEDED.jobRole,
        JobConfigSchemaVersion: '1.0.0',
        JobConfigDocument: JSON.stringify(evaluation),
      });
      clock.advance(120 * MINUTE);

      const text = await run('metrics', 'cli-run', '--endpoint', emulator.url);
      assert.equal(text.code, 0, text.err);
      assert.match(
        text.out,
        /step\s+rollout\/reward\/mean\s+rollout\/turns\/mean\s+training\/total_tokens\s+training\/num_trajectories\s+val\/reward\/pass_at_1/,
      );
      assert.equal(text.out.split('\n').filter((l) => /^\s*\d+\s/.test(l) && !l.includes('more keys')).length, 5, 'steps 0–4');

      const json = await run(
        'metrics',
        'arn:aws:sagemaker:us-east-1:111122223333:job/AgentRFT/cli-run',
        '--endpoint',
        emulator.url,
        '--json',
        '--keys',
        'rollout/reward/mean,val/reward/pass_at_1',
      );
      assert.equal(json.code, 0, json.err);
      const parsed = JSON.parse(json.out);
      assert.equal(parsed.job, 'cli-run');
      assert.match(parsed.run_id, /^[0-9a-f]{32}$/);
      assert.deepEqual(parsed.keys, ['rollout/reward/mean', 'val/reward/pass_at_1']);
      assert.deepEqual(
        parsed.steps.map((s: { step: number }) => s.step),
        [0, 1, 2, 3, 4],
      );
      assert.deepEqual(Object.keys(parsed.steps[0]), ['step', 'val/reward/pass_at_1']);
      assert.equal(typeof parsed.steps[1]['rollout/reward/mean'], 'number');

      const csv = await run('metrics', 'cli-run', '--endpoint', emulator.url, '--csv', '--keys', 'timing_s/step');
      assert.equal(csv.out.split('\n')[0], 'step,timing_s/step');
      assert.equal(csv.out.trim().split('\n').length, 5);

      const evalRun = await run('metrics', 'cli-eval', '--evaluation', '--endpoint', emulator.url, '--json');
      assert.equal(evalRun.code, 0, evalRun.err);
      const evalJson = JSON.parse(evalRun.out);
      assert.ok(evalJson.keys.includes('eval/reward/pass_at_2'));
      assert.equal(evalJson.steps.length, 1);

      const none = await run('metrics', 'no-mlflow', '--endpoint', emulator.url);
      assert.equal(none.code, 1);
      assert.match(none.err, /has no MLflow config.*TrainingConfig\.MlflowConfig/);

      const missing = await run('metrics', 'nope', '--endpoint', emulator.url);
      assert.equal(missing.code, 2);
      assert.match(missing.err, /^mtrl metrics: Reading the metrics of nope failed: .*\n$/);
    });
  });

  it('exits 2 on usage errors', async () => {
    assert.equal((await run('metrics')).code, 2);
    assert.equal((await run('metrics', 'a', '--json', '--csv')).code, 2);
    assert.match((await run('metrics', 'arn:aws:sagemaker:us-east-1:1:job/x')).err, /is not a job ARN/);
  });
});
