import assert from 'node:assert/strict';
import { SEEDED } from '../../../../src/emulator/seed';
import { describeJobIn, jobsIn, stopJobIn } from '../../../../src/services/jobs/lookup';
import { runtimeDetails, runtimesIn } from '../../../../src/services/runtimes';
import { mlflowAppsToPick, rolesToPick } from '../../../../src/services/launch/choices';
import { collect, withEmulator } from '../../emulator/helpers';

// The doors the features take to SageMaker, AgentCore and IAM (emulator, real SDK over HTTP): a region and a job, no client.
describe('services: the features’ door to jobs, runtimes, roles and MLflow apps', () => {
  it('lists, describes and stops a job by region; lists runtimes, roles and apps; reads a runtime', async () => {
    await withEmulator({}, async (_emulator, aws) => {
      const running = await collect(jobsIn(aws, 'us-east-1', { JobCategory: 'AgentRFT', StatusEquals: 'InProgress' }));
      assert.ok(running.some((j) => j.JobName === SEEDED.inProgressJob));
      assert.deepEqual(await collect(jobsIn(aws, 'eu-west-1', { JobCategory: 'AgentRFT' })), []);
      const job = { jobName: SEEDED.inProgressJob, category: 'AgentRFT' as const, region: 'us-east-1' };
      assert.equal((await describeJobIn(aws, job)).JobStatus, 'InProgress');
      await stopJobIn(aws, job);
      assert.match((await describeJobIn(aws, job)).JobStatus ?? '', /^Stopp/);

      const runtimes = await collect(runtimesIn(aws, 'us-east-1'));
      const wordle = runtimes.find((r) => r.agentRuntimeArn === SEEDED.runtime)!;
      assert.equal((await runtimeDetails(aws, wordle.agentRuntimeId!)).status, 'READY');
      assert.ok((await collect(rolesToPick(aws))).some((r) => r.arn === SEEDED.jobRole));
      assert.ok((await collect(mlflowAppsToPick(aws, 'us-east-1'))).some((a) => a.arn === SEEDED.mlflowApp));
    });
  });
});
