import { strict as assert } from 'node:assert';
import { readFileSync } from 'node:fs';
import path from 'node:path';
import { main } from '../../../src/cli';
import { AwsClients } from '../../../src/aws/clients';
import { createJob, describeJob, stopJob } from '../../../src/aws/sagemaker';
import { createJobRequest, parseJobFile } from '../../../src/core/jobs/jobfile';
import { ManualClock } from '../../../src/emulator/clock';
import { SEEDED } from '../../../src/emulator/seed';
import { startEmulator, type Emulator } from '../../../src/emulator/server';
import { ceiling } from '../../host/lib/ceiling';

async function run(...argv: string[]): Promise<{ code: number; out: string; err: string }> {
  let out = '';
  let err = '';
  const code = await main(argv, { out: (t) => void (out += t + '\n'), err: (t) => void (err += t + '\n'), stdin: () => [] });
  return { code, out, err };
}

const demo = parseJobFile(
  readFileSync(path.resolve(__dirname, '../../fixtures/demo-workspace/wordle-training.mtrl.json'), 'utf8'),
).jobFile!;

describe('mtrl resume', function () {
  this.timeout(ceiling(60_000));
  let emulator: Emulator;
  let aws: AwsClients;
  const clock = new ManualClock();

  before(async () => {
    process.env.AWS_ACCESS_KEY_ID ??= 'test';
    process.env.AWS_SECRET_ACCESS_KEY ??= 'test';
    emulator = await startEmulator({ clock, history: false, speed: 1 });
    aws = new AwsClients(() => ({ region: 'us-east-1', endpoint: emulator.url }));
    const document = structuredClone(demo.JobConfigDocument);
    document.TrainingConfig!.HyperParameters = { global_batch_size: '32', group_size: '2', max_steps: '10', max_epochs: '20' };
    await createJob(aws.sagemaker(), createJobRequest({ ...demo, JobName: 'cli-resume', JobConfigDocument: document }));
    const plan = emulator.world.jobs.get(emulator.world.jobKey('AgentRFT', 'cli-resume'))!.plan;
    clock.advance(plan.startingMs + plan.downloadingMs + 4.5 * plan.stepMs);
    await stopJob(aws.sagemaker(), { jobName: 'cli-resume', category: 'AgentRFT' });
    clock.advance(plan.stoppingMs + 1);
  });

  after(async () => {
    aws.reset();
    await emulator.close();
  });

  it('--json reviews the resume (findings, steps 5…10, the CreateJob request with the checkpoint) and creates nothing', async () => {
    const { code, out, err } = await run('resume', 'cli-resume', '--json', '--endpoint', emulator.url);
    const parsed = JSON.parse(out);
    assert.equal(parsed.step, 4);
    assert.ok(parsed.arithmetic.includes('resumes from the checkpoint of step 4: steps 5…10 (6 steps)'), parsed.arithmetic.join('\n'));
    assert.equal(
      JSON.parse(parsed.request.JobConfigDocument).ModelPackageConfig.InputModelPackageArn.endsWith('/cli-resume-checkpoints/4'),
      true,
    );
    assert.equal(parsed.request.JobName, 'cli-resume-resume-4');
    assert.ok(parsed.findings.every((f: { severity: string }) => ['error', 'warning', 'info'].includes(f.severity)));
    assert.equal(parsed.created, null);
    assert.equal(code, parsed.findings.some((f: { severity: string }) => f.severity === 'error') ? 1 : 0, err);
    await assert.rejects(describeJob(aws.sagemaker(), { jobName: 'cli-resume-resume-4', category: 'AgentRFT' }), /does not exist/);
  });

  it('--yes creates the resumed job; a job that cannot resume exits 1 with the reason', async () => {
    const created = await run('resume', 'cli-resume', '--yes', '--endpoint', emulator.url);
    assert.equal(created.code, 0, created.out + created.err);
    assert.match(created.out, /^Resume from Step 4 of cli-resume as cli-resume-resume-4/);
    assert.match(created.out, /Created arn:aws:sagemaker:us-east-1:111122223333:job\/AgentRFT\/cli-resume-resume-4/);
    const running = await run('resume', 'cli-resume-resume-4', '--endpoint', emulator.url);
    assert.equal(running.code, 1);
    assert.match(running.err, /is InProgress; only a stopped or failed training job is resumed/);
    const usage = await run('resume', `arn:aws:sagemaker:us-east-1:111122223333:job/AgentRFTEvaluation/${SEEDED.baseEvaluation}`);
    assert.equal(usage.code, 2);
  });
});
