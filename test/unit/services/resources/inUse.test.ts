// "Is this runtime in use?" has one answer: the launch banner (runtimesInUse over loadRunningJobs), the Resources view,
// cleanup (runningUsers) and the launch pre-flight agree for every job status, and the running-jobs service lists exactly
// the statuses that hold.
import { strict as assert } from 'node:assert';
import type { AwsClients } from '../../../../src/aws/clients';
import type { JobConfigDocument } from '../../../../src/core/jobs/document';
import type { JobDetails } from '../../../../src/core/jobs/job';
import type { JobFile } from '../../../../src/core/jobs/jobfile';
import { HOLDING_STATUSES, holdsResources, JOB_STATUSES } from '../../../../src/core/jobs/status';
import { runningUsers, runtimesInUse } from '../../../../src/core/resources/references';
import { DocumentSchemas } from '../../../../src/core/jobs/documentSchema';
import { DEFAULT_PRICING } from '../../../../src/core/jobs/pricing';
import { runPreflight } from '../../../../src/services/launch/preflight';
import { awsCleanupTarget } from '../../../../src/services/resources/awsTarget';
import { runCleanup } from '../../../../src/services/resources/cleanup';
import { loadInventory } from '../../../../src/services/resources/inventory';
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

  /** An account whose one job in us-east-1 has the status and invokes RUNTIME; every other service refuses (those lines are not asked about). */
  const accountWith = (status: string): AwsClients => {
    const refuse = { send: async () => Promise.reject(Object.assign(new Error('not in this test'), { name: 'AccessDeniedException' })) };
    const summary = { JobName: `job-${status}`, JobArn: `arn:aws:sagemaker:us-east-1:123456789012:job/job-${status}`, JobStatus: status };
    const sagemaker = (region?: string) => ({
      send: async (command: { constructor: { name: string }; input: Record<string, string | undefined> }) => {
        const { JobCategory, StatusEquals, NameContains } = command.input;
        const mine = region === 'us-east-1' && JobCategory === 'AgentRFT';
        if (command.constructor.name === 'ListJobsCommand')
          return {
            JobSummaries:
              mine && (!StatusEquals || StatusEquals === status) && (!NameContains || summary.JobName.includes(NameContains))
                ? [{ ...summary, JobCategory, CreationTime: new Date(0) }]
                : [],
          };
        if (command.constructor.name === 'DescribeJobCommand')
          return {
            ...summary,
            JobCategory: 'AgentRFT',
            CreationTime: new Date(0),
            JobConfigDocument: JSON.stringify({ AgentConfig: { BedrockAgentCoreConfig: { AgentRuntimeArn: RUNTIME } } }),
          };
        return refuse.send();
      },
    });
    const runtime = {
      agentRuntimeArn: RUNTIME,
      agentRuntimeId: 'wordle_agent-abcdefghij',
      agentRuntimeName: 'wordle_agent',
      status: 'READY',
    };
    const agentCore = {
      send: async (command: { constructor: { name: string } }) => {
        if (command.constructor.name === 'ListAgentRuntimesCommand') return { agentRuntimes: [runtime] };
        if (command.constructor.name === 'GetAgentRuntimeCommand') return { ...runtime };
        if (command.constructor.name === 'DeleteAgentRuntimeCommand') return {};
        return refuse.send();
      },
    };
    return new Proxy({ current: { region: 'us-east-1' }, sagemaker, agentCoreControl: () => agentCore } as Record<string, unknown>, {
      get: (target, key: string) => target[key] ?? (() => refuse),
    }) as unknown as AwsClients;
  };

  for (const status of JOB_STATUSES) {
    it(`a job that is ${status} in an account: the banner, the Resources view, cleanup and the pre-flight give the same answer`, async () => {
      const aws = accountWith(status);
      const explain = () => 'unreadable';
      const inUse = holdsResources(status);

      const banner = runtimesInUse((await loadRunningJobs(aws, ['us-east-1'], explain)).jobs).has(RUNTIME);

      const inventory = await loadInventory(aws, { regions: ['us-east-1'], pricing: DEFAULT_PRICING, now: new Date(0), explain });
      const item = inventory.runtimes.find((r) => r.ref.id === RUNTIME)!;
      const resourcesView = item.running.includes(`job-${status}`);

      const plan = { steps: [{ item, action: 'delete the runtime' }], refused: [], regionsChecked: ['us-east-1'], regionsNotChecked: [] };
      const cleaned = await runCleanup(plan, awsCleanupTarget(aws, ['us-east-1'], explain), () => {});
      const cleanupKeeps = cleaned.remaining.some((r) => r.ref.id === RUNTIME && /running job/.test(r.reason));

      const file = {
        JobName: 'new-job',
        JobCategory: 'AgentRFT',
        Region: 'us-east-1',
        RoleArn: 'arn:aws:iam::123456789012:role/r',
        JobConfigSchemaVersion: '1.0',
        JobConfigDocument: { AgentConfig: { BedrockAgentCoreConfig: { AgentRuntimeArn: RUNTIME } } },
      } as unknown as JobFile;
      const deps = { aws, schemas: new DocumentSchemas(), models: async () => [], datasets: async () => ({ facts: [] }) };
      const line = (await runPreflight(file, deps)).results.find((r) => r.check === 'runtime')!;
      assert.equal(line.level, 'pass', line.message);
      const preflight = line.message.includes(`job-${status}`);

      assert.deepEqual(
        { banner, resourcesView, cleanupKeeps, preflight },
        { banner: inUse, resourcesView: inUse, cleanupKeeps: inUse, preflight: inUse },
      );
    });
  }
});
