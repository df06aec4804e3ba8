import { strict as assert } from 'node:assert';
import { readFileSync } from 'node:fs';
import path from 'node:path';
import { AwsClients } from '../../../../src/aws/clients';
import { explainerFor } from '../../../../src/aws/errors';
import { createJob } from '../../../../src/aws/sagemaker';
import { mlflowConfigOf } from '../../../../src/core/jobs/document';
import { DocumentSchemas } from '../../../../src/core/jobs/documentSchema';
import { createJobRequest, parseJobFile, type JobFile } from '../../../../src/core/jobs/jobfile';
import { STATIC_MODELS, modelsInRegion } from '../../../../src/core/jobs/models';
import { jobDiagnosis } from '../../../../src/core/jobs/summary';
import { SEEDED } from '../../../../src/emulator/seed';
import { startEmulator, type Emulator, type EmulatorOptions } from '../../../../src/emulator/server';
import { mlflowCheck, quotaCheck } from '../../../../src/services/launch/accountChecks';
import { readDatasets } from '../../../../src/services/datasets/channels';
import { runPreflight, type PreflightDeps } from '../../../../src/services/launch/preflight';
import { ceiling } from '../../../host/lib/ceiling';

const demo = parseJobFile(
  readFileSync(path.resolve(__dirname, '../../../fixtures/demo-workspace/wordle-training.mtrl.json'), 'utf8'),
).jobFile!;
const REQUEST =
  /aws service-quotas request-service-quota-increase --service-code sagemaker --quota-code L-A9CEE0B1 --desired-value 1 --region us-east-1/;

/** An emulator and real SDK clients (one attempt per call, so a throttled call is not retried away). */
async function withEmulator(options: EmulatorOptions, body: (emulator: Emulator, aws: AwsClients) => Promise<void>): Promise<void> {
  process.env.AWS_ACCESS_KEY_ID ??= 'test';
  process.env.AWS_SECRET_ACCESS_KEY ??= 'test';
  const emulator = await startEmulator({ history: false, ...options });
  const aws = new AwsClients(() => ({ region: 'us-east-1', endpoint: emulator.url, maxAttempts: 1 }));
  try {
    await body(emulator, aws);
  } finally {
    aws.reset();
    await emulator.close();
  }
}

function preflightDeps(aws: AwsClients): PreflightDeps {
  return {
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
  };
}

describe('pre-flight account lines: the MTRL quota and the MLflow version (emulator, real SDK over HTTP)', function () {
  this.timeout(ceiling(30_000));

  it('a training quota of 0 is an error naming the request; CreateJob then fails and the diagnosis says the same', async () => {
    await withEmulator({ quotas: { 'L-A9CEE0B1': 0 } }, async (_emulator, aws) => {
      const job: JobFile = { ...demo, JobName: 'quota-zero' };
      const { results } = await runPreflight(job, preflightDeps(aws));
      const quota = results.find((r) => r.check === 'quota');
      assert.equal(quota?.level, 'fail');
      assert.match(quota!.message, /quota L-A9CEE0B1 \(concurrent MTRL training jobs\) is 0 in us-east-1/);
      assert.match(quota!.fix ?? '', REQUEST);
      const refused = await createJob(aws.sagemaker(), createJobRequest(job)).then(
        () => undefined,
        (e: Error) => e,
      );
      assert.equal(refused?.name, 'ResourceLimitExceeded');
      const diagnosis = jobDiagnosis({
        name: 'quota-zero',
        arn: '',
        category: 'AgentRFT',
        region: 'us-east-1',
        status: 'Failed',
        created: new Date(),
        failureReason: refused!.message,
      });
      assert.equal(diagnosis?.title, 'MTRL quota reached');
      assert.match(diagnosis!.fix, REQUEST);
    });
  });

  it('the seeded quotas pass; a denied or throttled quota call reads "not checked", never an error', async () => {
    await withEmulator({ deniedRegions: ['eu-west-1'] }, async (_emulator, aws) => {
      const explain = explainerFor(() => aws.current);
      const seeded = await quotaCheck(aws, explain, 'AgentRFTEvaluation', 'us-east-1');
      assert.deepEqual([seeded.level, seeded.message], ['pass', 'Quota L-2633C043 allows 1 concurrent MTRL evaluation jobs in us-east-1.']);
      const denied = await quotaCheck(aws, explain, 'AgentRFT', 'eu-west-1');
      assert.equal(denied.level, 'pass');
      assert.equal(
        denied.message,
        'Quota L-A9CEE0B1 (concurrent MTRL training jobs) not checked (permission servicequotas:GetServiceQuota denied).',
      );
    });
    await withEmulator({ throttleRate: 1 }, async (_emulator, aws) => {
      const throttled = await quotaCheck(
        aws,
        explainerFor(() => aws.current),
        'AgentRFT',
        'us-east-1',
      );
      assert.equal(throttled.level, 'pass');
      assert.match(throttled.message, /not checked \(Service Quotas throttled the call\)/);
    });
  });

  it('the demo MLflow app (3.10) passes; the old 3.4.0 app is refused with the reason; an app not listed is an error', async () => {
    await withEmulator({}, async (_emulator, aws) => {
      assert.equal((await mlflowCheck(aws, SEEDED.mlflowApp, 'us-east-1'))?.level, 'pass');
      const old = await mlflowCheck(aws, SEEDED.oldMlflowApp, 'us-east-1');
      assert.equal(old?.level, 'fail');
      assert.equal(old?.message, 'MLflow app app-legacy01 runs MLflow 3.4.0; MTRL needs 3.10 or later.');
      const missing = await mlflowCheck(aws, 'arn:aws:sagemaker:us-east-1:111122223333:mlflow-app/app-gone', 'us-east-1');
      assert.equal(missing?.level, 'fail');
      assert.equal(await mlflowCheck(aws, undefined, 'us-east-1'), undefined, 'no MLflow config, no line');
    });
  });

  it('every MLflow app a seeded job logs to runs 3.10 or later: Launch Similar of a seeded job is not refused for its app', async () => {
    await withEmulator({ history: true }, async (emulator, aws) => {
      const apps = new Set([...emulator.world.jobs.values()].map((j) => mlflowConfigOf(j.document)?.MlflowResourceArn));
      apps.delete(undefined);
      assert.ok(apps.size >= 2, `the seeded jobs log to ${[...apps].join(', ')}`);
      for (const arn of apps) {
        const line = await mlflowCheck(aws, arn, arn!.split(':')[3]);
        assert.equal(line?.level, 'pass', line?.message);
      }
    });
  });
});
