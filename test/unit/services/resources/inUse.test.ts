// "Is this runtime in use?" has one answer: the launch banner (runtimesInUse over loadRunningJobs), the Resources view and
// cleanup (runningUsers) agree for every job status, and the running-jobs service lists exactly the statuses that hold.
import { strict as assert } from 'node:assert';
import type { AwsClients } from '../../../../src/aws/clients';
import type { JobConfigDocument } from '../../../../src/core/jobs/document';
import type { JobDetails } from '../../../../src/core/jobs/job';
import { HOLDING_STATUSES, holdsResources, JOB_STATUSES } from '../../../../src/core/jobs/status';
import { runningUsers, runtimesInUse } from '../../../../src/core/resources/references';
import { loadRunningJobs } from '../../../../src/services/resources/jobs';

const RUNTIME = 'arn:aws:bedrock-agentcore:us-east-1:123456789012:runtime/wordle_agent-abcdefghij';

const job = (status: string): JobDetails => ({
  name: `job-${status}`,
  arn: `arn:aws:sagemaker:us-east-1:123456789012:job/job-${status}`,
  category: 'AgentRFT',
  region: 'us-east-1',
  status,
  created: new Date(0),
  transitions: [],
  document: { AgentConfig: { BedrockAgentCoreConfig: { AgentRuntimeArn: RUNTIME } } } as unknown as JobConfigDocument,
});

describe('a runtime in use: one definition', () => {
  it('only InProgress and Stopping hold a resource', () => {
    assert.deepEqual([...HOLDING_STATUSES], ['InProgress', 'Stopping']);
    assert.deepEqual(
      JOB_STATUSES.filter((s) => holdsResources(s)),
      ['InProgress', 'Stopping'],
    );
  });

  for (const status of JOB_STATUSES) {
    it(`a job that is ${status}: the banner, the Resources view and cleanup give the same answer`, () => {
      const jobs = [job(status)];
      const banner = runtimesInUse(jobs).has(RUNTIME);
      const resourcesAndCleanup = runningUsers({ kind: 'runtime', id: RUNTIME }, jobs).length > 0;
      assert.equal(banner, holdsResources(status));
      assert.equal(resourcesAndCleanup, holdsResources(status));
    });
  }

  it('the running-jobs service (cleanup and the banner) lists exactly the holding statuses', async () => {
    const asked: unknown[] = [];
    const sagemaker = {
      send: async (command: { input: { StatusEquals?: string } }) => {
        asked.push(command.input.StatusEquals);
        return { JobSummaries: [] };
      },
    };
    const aws = { sagemaker: () => sagemaker } as unknown as AwsClients;
    const { jobs } = await loadRunningJobs(aws, ['us-east-1'], () => 'unreadable');
    assert.deepEqual(jobs, []);
    assert.deepEqual([...new Set(asked)], [...HOLDING_STATUSES]);
  });
});
