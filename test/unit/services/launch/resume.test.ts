import { strict as assert } from 'node:assert';
import { readFileSync } from 'node:fs';
import path from 'node:path';
import { AwsClients } from '../../../../src/aws/clients';
import { explainerFor } from '../../../../src/aws/errors';
import { getLogEvents } from '../../../../src/aws/logs';
import { createJob, describeJob, describeJobDetails, stopJob } from '../../../../src/aws/sagemaker';
import { NO_DOCUMENT, RESUME_STEP_TAG } from '../../../../src/core/jobs/checkpoint';
import { jobTooltip } from '../../../../src/core/jobs/tooltip';
import { DocumentSchemas } from '../../../../src/core/jobs/documentSchema';
import { createJobRequest, jobFileFromDescription, parseJobFile, type JobFile } from '../../../../src/core/jobs/jobfile';
import { DEFAULT_PRICING } from '../../../../src/core/jobs/pricing';
import { ManualClock } from '../../../../src/emulator/clock';
import { startEmulator, type Emulator } from '../../../../src/emulator/server';
import { launchJob, reviewJob, type LaunchDeps } from '../../../../src/services/launch/launch';
import { ModelCatalog } from '../../../../src/services/launch/modelCatalog';
import { planResume } from '../../../../src/services/launch/resume';
import { ceiling } from '../../../host/lib/ceiling';

const demo = parseJobFile(
  readFileSync(path.resolve(__dirname, '../../../fixtures/demo-workspace/wordle-training.mtrl.json'), 'utf8'),
).jobFile!;
const RUNTIME = 'arn:aws:bedrock-agentcore:us-east-1:111122223333:runtime/wordle_agent-AbCdEf1234';

/** The demo job with `max_steps` steps of 32 × 2 rollouts and no validation channel, so the cost counts training steps only. */
function tenStepJob(name: string, maxSteps = '10'): JobFile {
  const document = structuredClone(demo.JobConfigDocument);
  document.InputDataConfig = document.InputDataConfig?.filter((c) => c.ChannelName === 'train');
  document.TrainingConfig!.HyperParameters = { global_batch_size: '32', group_size: '2', max_steps: maxSteps, max_epochs: '20' };
  return { ...demo, JobName: name, JobConfigDocument: document };
}

describe('resume from a checkpoint (emulator, real SDK over HTTP)', function () {
  this.timeout(ceiling(30_000));
  let emulator: Emulator;
  let aws: AwsClients;
  let deps: LaunchDeps;
  const clock = new ManualClock();

  before(async () => {
    process.env.AWS_ACCESS_KEY_ID ??= 'test';
    process.env.AWS_SECRET_ACCESS_KEY ??= 'test';
    emulator = await startEmulator({ clock, history: false, speed: 1 });
    aws = new AwsClients(() => ({ region: 'us-east-1', endpoint: emulator.url }));
    deps = {
      aws,
      schemas: new DocumentSchemas(),
      models: new ModelCatalog(aws, () => []),
      explain: explainerFor(() => aws.current),
      pricing: () => DEFAULT_PRICING,
      smokeResults: () => ({ [RUNTIME]: { ok: true, at: '2026-11-29T10:00:00Z', summary: 'reward -1.5' } }),
      log: () => undefined,
    };
  });

  after(async () => {
    aws.reset();
    await emulator.close();
  });

  it('a job stopped at step 4 of 10 resumes at step 5 with the checkpoint, the same document and 6 steps in its estimate', async () => {
    const original = tenStepJob('resume-source');
    await createJob(aws.sagemaker(), createJobRequest(original));
    const plan = emulator.world.jobs.get(emulator.world.jobKey('AgentRFT', 'resume-source'))!.plan;
    // Into the middle of step 5: four steps finished.
    clock.advance(plan.startingMs + plan.downloadingMs + 4.5 * plan.stepMs);
    const ref = { jobName: 'resume-source', category: 'AgentRFT' as const };
    await stopJob(aws.sagemaker(), ref);
    clock.advance(plan.stoppingMs + 1);
    const stopped = (await describeJob(aws.sagemaker(), ref)).config?.ServiceOutput;
    assert.deepEqual(stopped?.ProgressInfo, { MaxSteps: 10, CurrentStep: 4 });
    assert.equal((stopped?.ResumableCheckpoint as { Step?: number }).Step, 4);

    const resumed = await planResume(aws, ref, 'us-east-1');
    assert.ok('job' in resumed, JSON.stringify(resumed));
    assert.equal(resumed.point.step, 4);
    assert.equal(resumed.job.JobName, 'resume-source-resume-4');
    const doc = resumed.job.JobConfigDocument;
    assert.equal(doc.ModelPackageConfig?.InputModelPackageArn, resumed.point.checkpointArn);
    assert.deepEqual(
      doc.TrainingConfig,
      original.JobConfigDocument.TrainingConfig,
      'same base model, LoRA and hyperparameters (max_steps 10)',
    );
    assert.deepEqual(doc.InputDataConfig, original.JobConfigDocument.InputDataConfig, 'same data');
    assert.equal(resumed.job.Tags?.find((t) => t.Key === RESUME_STEP_TAG)?.Value, '4');

    const review = await reviewJob(resumed.job, deps);
    assert.ok(review);
    assert.ok(review.arithmetic.includes('resumes from the checkpoint of step 4: steps 5…10 (6 steps)'), review.arithmetic.join('\n'));
    assert.ok(review.arithmetic.includes('6 steps × 64 = 384 training rollouts'), review.arithmetic.join('\n'));
    const fresh = await reviewJob(tenStepJob('resume-six-steps', '6'), deps);
    assert.deepEqual(review.estimate, fresh?.estimate, 'the estimate of 6 steps, not 10');

    const result = await launchJob(resumed.job, deps, {}, review);
    assert.ok(result.launched, result.reason);
    const next = { jobName: resumed.job.JobName, category: 'AgentRFT' as const };
    const resumedPlan = emulator.world.jobs.get(emulator.world.jobKey('AgentRFT', next.jobName))!.plan;
    clock.advance(resumedPlan.startingMs + resumedPlan.downloadingMs + resumedPlan.stepMs + 1);
    const running = (await describeJob(aws.sagemaker(), next)).config?.ServiceOutput;
    assert.deepEqual(running?.ProgressInfo, { MaxSteps: 10, CurrentStep: 5 }, 'its first finished step is step 5');
    assert.deepEqual(running?.RolloutInfo, { Total: 6 * 64, Completed: 64 });
    const lines: string[] = [];
    const stream = `${next.jobName}/algo-1-${emulator.world.jobs.get(emulator.world.jobKey('AgentRFT', next.jobName))!.created}`;
    for await (const e of getLogEvents(aws.logs(), { logGroupName: '/aws/sagemaker/Job/AgentRFT', logStreamName: stream }))
      lines.push(e.message ?? '');
    assert.ok(
      lines.some((l) => l.startsWith('Step 5/10:')),
      lines.join('\n'),
    );
  });

  it('refuses what cannot resume: a running job, an evaluation, a checkpoint that does not exist, one of another base model', async () => {
    await createJob(aws.sagemaker(), createJobRequest(tenStepJob('resume-running')));
    clock.advance(1);
    const running = await planResume(aws, { jobName: 'resume-running', category: 'AgentRFT' }, 'us-east-1');
    assert.deepEqual(running, {
      problem: 'resume-running: The job is InProgress; only a stopped or failed training job is resumed (Launch Similar starts afresh).',
    });
    const bogus = tenStepJob('resume-bogus');
    bogus.JobConfigDocument.ModelPackageConfig = {
      InputModelPackageArn: 'arn:aws:sagemaker:us-east-1:111122223333:model-package/resume-running-checkpoints/9',
    };
    await assert.rejects(createJob(aws.sagemaker(), createJobRequest(bogus)), /Model package .* does not exist/);
    const other = tenStepJob('resume-other-model');
    other.JobConfigDocument.ModelPackageConfig = {
      InputModelPackageArn: 'arn:aws:sagemaker:us-east-1:111122223333:model-package/resume-source-checkpoints/4',
    };
    other.JobConfigDocument.TrainingConfig!.BaseModelArn = 'arn:aws:sagemaker:us-east-1:aws:hub-content/SageMakerPublicHub/Model/qwen3-8b';
    await assert.rejects(createJob(aws.sagemaker(), createJobRequest(other)), /A resumed job keeps its base model/);
  });

  it('a DescribeJob without a JobConfigDocument, or without a checkpoint, says so: no resume, no job file, a tooltip line', async () => {
    const ref = (jobName: string) => ({ jobName, category: 'AgentRFT' as const });
    for (const name of ['resume-no-document', 'resume-no-checkpoint']) {
      await createJob(aws.sagemaker(), createJobRequest(tenStepJob(name)));
      const plan = emulator.world.jobs.get(emulator.world.jobKey('AgentRFT', name))!.plan;
      clock.advance(plan.startingMs + plan.downloadingMs + 2.5 * plan.stepMs);
      await stopJob(aws.sagemaker(), ref(name));
      clock.advance(plan.stoppingMs + 1);
    }
    emulator.world.jobsWithoutDocument.add('resume-no-document');
    emulator.world.jobsWithoutCheckpoint.add('resume-no-checkpoint');

    const bare = await describeJob(aws.sagemaker(), ref('resume-no-document'));
    assert.equal(bare.JobConfigDocument, undefined, 'the real SDK reads an answer without the optional member');
    assert.equal(bare.JobStatus, 'Stopped');
    const noDocument = await planResume(aws, ref('resume-no-document'), 'us-east-1');
    assert.deepEqual(noDocument, { problem: `resume-no-document: ${NO_DOCUMENT}` });
    assert.throws(() => jobFileFromDescription(bare, 'us-east-1'), /no JobConfigDocument for resume-no-document .*cannot be saved/);
    const details = await describeJobDetails(aws.sagemaker(), ref('resume-no-document'), 'us-east-1');
    assert.match(
      jobTooltip(details, DEFAULT_PRICING, new Date(clock.now())),
      /\| Configuration \| DescribeJob returned no readable JobConfigDocument/,
    );

    const noCheckpoint = await planResume(aws, ref('resume-no-checkpoint'), 'us-east-1');
    assert.deepEqual(noCheckpoint, {
      problem: 'resume-no-checkpoint: The job reports no resumable checkpoint (it stopped before its first step finished).',
    });
    const output = (await describeJob(aws.sagemaker(), ref('resume-no-checkpoint'))).config?.ServiceOutput;
    assert.deepEqual(output?.ProgressInfo, { MaxSteps: 10, CurrentStep: 2 }, 'the rest of ServiceOutput is there');
  });
});
