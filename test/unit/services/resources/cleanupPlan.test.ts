import { strict as assert } from 'node:assert';
import type { JobDetails } from '../../../../src/core/jobs/job';
import type { ResourceRef } from '../../../../src/core/resources/references';
import { runCleanup, type CleanupTarget } from '../../../../src/services/resources/cleanup';
import { planCleanup } from '../../../../src/services/resources/cleanupPlan';
import type { Inventory, InventoryItem } from '../../../../src/services/resources/inventory';
import type { RegionJobs } from '../../../../src/services/resources/jobs';

const ROLE = 'arn:aws:iam::111122223333:role/R';
const WEST_RUNTIME = 'arn:aws:bedrock-agentcore:us-west-2:111122223333:runtime/a-AbCdEf1234';
const EAST_RUNTIME = 'arn:aws:bedrock-agentcore:us-east-1:111122223333:runtime/b-AbCdEf1234';
const PREFIX = 's3://b/output/done/';

function item(ref: ResourceRef, rest: Partial<InventoryItem> = {}): InventoryItem {
  return { ref, label: ref.id, jobs: [], running: [], ...rest };
}

function inventory(rest: Partial<Inventory> = {}): Inventory {
  return {
    runtimes: [item({ kind: 'runtime', id: WEST_RUNTIME }), item({ kind: 'runtime', id: EAST_RUNTIME })],
    roles: [item({ kind: 'role', id: ROLE })],
    mlflowApps: [],
    prefixes: [item({ kind: 's3Prefix', id: PREFIX }, { size: { objects: 2500, bytes: 10 }, untouched: ['other-team/'] })],
    notificationRules: [],
    jobs: [],
    regionsChecked: ['us-east-1', 'us-west-2'],
    unreadableRegions: [],
    regionsNotChecked: [],
    spend: { monthToDate: 0, jobs: [], unpriced: [] },
    problems: [],
    ...rest,
  };
}

function running(name: string, region: string, roleArn = ROLE): JobDetails {
  return {
    name,
    arn: `arn:aws:sagemaker:${region}:111122223333:job/AgentRFT/${name}`,
    category: 'AgentRFT',
    region,
    status: 'InProgress',
    created: new Date(0),
    transitions: [],
    roleArn,
    document: { OutputDataConfig: { S3OutputPath: 's3://b/output' } },
  };
}

describe('cleanup plan (pure)', () => {
  it('an unreadable region refuses account-wide targets and its own runtimes, not a runtime of a readable region', () => {
    const plan = planCleanup(inventory({ unreadableRegions: [{ region: 'us-west-2', reason: 'Listing failed: access denied.' }] }), [
      { kind: 'role', id: ROLE },
      { kind: 's3Prefix', id: PREFIX },
      { kind: 'runtime', id: WEST_RUNTIME },
      { kind: 'runtime', id: EAST_RUNTIME },
    ]);
    assert.deepEqual(
      plan.steps.map((s) => s.item.ref.id),
      [EAST_RUNTIME],
    );
    assert.deepEqual(
      plan.refused.map((r) => r.reason),
      [
        'not proven unused: the jobs of us-west-2 could not be read (Listing failed: access denied); roles and S3 prefixes are account-wide, so the running jobs of every region must be known (take a region out of scope by name with --exclude-regions or mtrl.cleanup.excludeRegions)',
        'not proven unused: the jobs of us-west-2 could not be read (Listing failed: access denied); roles and S3 prefixes are account-wide, so the running jobs of every region must be known (take a region out of scope by name with --exclude-regions or mtrl.cleanup.excludeRegions)',
        'not proven unused: the jobs of us-west-2 could not be read (Listing failed: access denied)',
      ],
    );
  });

  it('a running job of any region refuses a role, named with its region; targets count once; untouched folders are warned of', () => {
    const plan = planCleanup(inventory({ jobs: [running('west-sweep', 'us-west-2')] }), [
      { kind: 'role', id: ROLE },
      { kind: 's3Prefix', id: PREFIX },
      { kind: 's3Prefix', id: PREFIX },
      { kind: 'role', id: ROLE },
    ]);
    assert.deepEqual(
      plan.refused.map((r) => r.reason),
      ['used by running job west-sweep in us-west-2; stop it or wait until it finishes'],
    );
    assert.equal(plan.steps.length, 1);
    assert.match(plan.steps[0].warning ?? '', /also holds other-team\/, which no listed job read or wrote/);
  });

  it('names what no listed job used, never takes a whole bucket, and names the running user of a folder not offered', () => {
    const plan = planCleanup(inventory({ jobs: [running('east-sweep', 'us-east-1')] }), [
      { kind: 's3Prefix', id: 's3://b/other-team/' },
      { kind: 's3Prefix', id: 's3://other-bucket/' },
      { kind: 's3Prefix', id: 's3://b/output/east-sweep/' },
    ]);
    assert.deepEqual(plan.steps, []);
    assert.match(plan.refused[0].reason, /^this folder was never used by a job of us-east-1, us-west-2/);
    assert.match(plan.refused[1].reason, /^a whole bucket is never cleaned up/);
    assert.match(plan.refused[2].reason, /^used by running job east-sweep in us-east-1/);
  });
});

/** A target that records its calls; `deleteKeys` waits for `release` when given one. */
function fakeTarget(keys: string[], options: { release?: Promise<void>; jobs?: () => RegionJobs } = {}) {
  const calls: string[][] = [];
  const target: CleanupTarget = {
    runningJobs: async () => options.jobs?.() ?? { jobs: [], regions: ['us-east-1', 'us-west-2'], unreadable: [] },
    deleteRuntime: async () => undefined,
    deleteRole: async () => undefined,
    deleteMlflowApp: async () => undefined,
    deleteNotificationRule: async () => undefined,
    async *listKeys() {
      yield* keys;
    },
    async deleteKeys(_prefix, batch, signal) {
      calls.push(batch);
      if (options.release)
        await new Promise<void>((resolve, reject) => {
          void options.release?.then(resolve);
          signal?.addEventListener('abort', () => reject(new DOMException('aborted', 'AbortError')));
        });
      return [];
    },
  };
  return { target, calls };
}

describe('cleanup run: stop and abandon (pure)', () => {
  const keys = Array.from({ length: 2500 }, (_, i) => `output/done/${String(i).padStart(4, '0')}`);
  const plan = () => planCleanup(inventory(), [{ kind: 's3Prefix', id: PREFIX }]);

  it('a stop during a call lets that call answer and counts it; the next call is never sent', async () => {
    let release!: () => void;
    const { target, calls } = fakeTarget(keys, { release: new Promise<void>((r) => (release = r)) });
    const stop = new AbortController();
    const done = runCleanup(plan(), target, () => undefined, stop.signal);
    await new Promise((r) => setTimeout(r, 10));
    stop.abort(new DOMException('no result within 4 s', 'TimeoutError'));
    release();
    const result = await done;
    assert.equal(result.stopped, 'deadline');
    assert.equal(calls.length, 1);
    assert.deepEqual(result.remaining[0].deletedKeys, keys.slice(0, 1000));
    assert.equal(result.remaining[0].reason, 'stopped at the deadline: 1000 of 2500 objects deleted, 1500 left');
  });

  it('abandoning the call in flight reports its keys as unknown, not as deleted', async () => {
    const { target } = fakeTarget(keys, { release: new Promise<void>(() => undefined) });
    const stop = new AbortController();
    const abandon = new AbortController();
    const done = runCleanup(plan(), target, () => undefined, stop.signal, abandon.signal);
    await new Promise((r) => setTimeout(r, 10));
    stop.abort();
    abandon.abort();
    const result = await done;
    assert.equal(result.stopped, 'cancel');
    assert.deepEqual(result.remaining[0].deletedKeys, []);
    assert.equal(result.remaining[0].unknownKeys?.length, 1000);
    assert.match(
      result.remaining[0].reason,
      /^cancelled while a delete call was unanswered: 0 of 2500 objects deleted, 1000 may or may not be, 1500 left$/,
    );
  });

  it('a region that becomes unreadable between two calls stops the prefix with the exact count', async () => {
    let checks = 0;
    const { target, calls } = fakeTarget(keys, {
      jobs: () => ({
        jobs: [],
        regions: ['us-east-1', 'us-west-2'],
        unreadable: ++checks > 1 ? [{ region: 'us-west-2', reason: 'no answer' }] : [],
      }),
    });
    const result = await runCleanup(plan(), target, () => undefined);
    assert.equal(calls.length, 1);
    assert.match(
      result.remaining[0].reason,
      /^not proven unused: the jobs of us-west-2 could not be read \(no answer\).*: 1000 of 2500 objects deleted, 1500 left$/,
    );
  });
});
