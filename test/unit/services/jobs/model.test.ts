import { strict as assert } from 'node:assert';
import { once } from 'node:events';
import { createServer, type AddressInfo, type Socket } from 'node:net';
import { AwsClients } from '../../../../src/aws/clients';
import { explainAwsError } from '../../../../src/aws/errors';
import { sageMakerJobsBackend, type JobsBackend } from '../../../../src/services/jobs/backend';
import { JobsModel } from '../../../../src/services/jobs/model';
import { JobNode, type RootNode } from '../../../../src/services/jobs/nodes';
import { MessageNode } from '../../../../src/services/treeNodes';
import { jobsWelcome } from '../../../../src/services/jobs/welcome';

/** Only for the states the emulator cannot produce (no credentials at all) and for counting calls. */
function modelOver(backend: Partial<JobsBackend>) {
  return new JobsModel({
    backend: backend as JobsBackend,
    regions: () => ['us-west-2'],
    explain: (error, action) => explainAwsError(error, { profile: 'research', action }),
    hasRollouts: () => false,
  });
}

describe('jobs model states', () => {
  it('offers Choose AWS profile when there are no credentials', async () => {
    const error = Object.assign(new Error('Could not load credentials from any providers'), { name: 'CredentialsProviderError' });
    const model = modelOver({ listPage: async () => Promise.reject(error) });
    const [root] = (await model.getChildren()) as RootNode[];
    const [node] = await model.getChildren(root);
    assert.ok(node instanceof MessageNode);
    assert.equal(node.message, 'credentials');
    assert.match(node.text, /no AWS credentials found for profile 'research'/);
    assert.deepEqual(
      [node.id, node.fix?.title, node.fix?.command],
      ['us-west-2/AgentRFT#credentials', 'Choose AWS profile', 'mtrl.chooseProfile'],
    );
  });

  it('offers a launch when a region has no jobs, and lists each root once for concurrent callers', async () => {
    let calls = 0;
    const model = modelOver({ listPage: async () => (calls++, { jobs: [] }) });
    const [training, evaluation] = (await model.getChildren()) as RootNode[];
    const [a, b] = await Promise.all([model.getChildren(training), model.getChildren(training)]);
    assert.equal(calls, 1);
    assert.deepEqual(
      [a[0], b[0]].map((n) => (n as MessageNode).text),
      ['No training jobs in us-west-2.', 'No training jobs in us-west-2.'],
    );
    const empty = (await model.getChildren(evaluation))[0] as MessageNode;
    assert.deepEqual(
      [empty.id, empty.message, empty.text, empty.fix?.title, empty.fix?.command, empty.icon],
      [
        'us-west-2/AgentRFTEvaluation#empty',
        'empty',
        'No evaluation jobs in us-west-2.',
        'Launch evaluation job',
        'mtrl.launchEvaluationJob',
        'rocket',
      ],
    );
  });

  it('says the whole view is one welcome when no root has credentials, or no root has a job and no filter is set', async () => {
    const noCredentials = Object.assign(new Error('Could not load credentials from any providers'), { name: 'CredentialsProviderError' });
    assert.equal(await jobsWelcome(modelOver({ listPage: async () => Promise.reject(noCredentials) })), 'credentials');
    assert.equal(await jobsWelcome(modelOver({ listPage: async () => ({ jobs: [] }) })), 'empty');
    const filtered = modelOver({ listPage: async () => ({ jobs: [] }) });
    filtered.query = { ...filtered.query, nameContains: 'refund' };
    assert.equal(await jobsWelcome(filtered), '', 'a filter that matches nothing says so in its own rows');
    const throttled = Object.assign(new Error('Rate exceeded'), { name: 'ThrottlingException' });
    assert.equal(await jobsWelcome(modelOver({ listPage: async () => Promise.reject(throttled) })), '', 'an error shows with its Retry');
    const oneJob = modelOver({
      listPage: async (_region, category) =>
        category === 'AgentRFT'
          ? { jobs: [{ name: 'a', arn: 'arn:a', category, region: 'us-west-2', status: 'Completed', created: new Date(0) }] }
          : { jobs: [] },
      describe: async (region, category, name) => ({
        name,
        arn: `arn:${name}`,
        category,
        region,
        status: 'Completed',
        created: new Date(0),
        transitions: [],
      }),
    });
    assert.equal(await jobsWelcome(oneJob), '');
  });

  it('pins a revealed job that is not on the first page on top of its root', async () => {
    const summary = (name: string) => ({
      name,
      arn: `arn:${name}`,
      category: 'AgentRFT' as const,
      region: 'us-west-2',
      status: 'Completed',
      created: new Date(0),
    });
    const model = modelOver({
      listPage: async () => ({ jobs: [summary('newest')], nextToken: 'more' }),
      describe: async (_r, _c, name) => ({ ...summary(name), transitions: [] }),
    });
    const node = await model.find({ jobName: 'old-one', category: 'AgentRFT', region: 'us-west-2' });
    assert.ok(node instanceof JobNode);
    const [training] = model.getRoots();
    assert.deepEqual(
      training.jobs.map((j) => j.jobName),
      ['old-one', 'newest'],
    );
    assert.equal(
      await model.find({ jobName: 'x', category: 'AgentRFT', region: 'eu-west-1' }),
      undefined,
      'a region the tree does not list',
    );
  });

  it('keeps the ListJobs row and says why when a describe fails', async () => {
    const model = modelOver({
      listPage: async () => ({
        jobs: [{ name: 'j', arn: 'a', category: 'AgentRFT' as const, region: 'us-west-2', status: 'InProgress', created: new Date(0) }],
      }),
      describe: async () => Promise.reject(Object.assign(new Error('Rate exceeded'), { name: 'ThrottlingException' })),
    });
    const [training] = (await model.getChildren()) as RootNode[];
    const [job] = (await model.getChildren(training)) as JobNode[];
    assert.equal(job.status, 'InProgress');
    assert.match(job.describeError ?? '', /^Describing j failed: AWS is throttling requests/);
    await assert.rejects(model.refreshInProgress(), /Rate exceeded/);
  });
});

describe('jobs model redraws', () => {
  const job = (name: string, status: string) => ({
    name,
    arn: `arn:${name}`,
    category: 'AgentRFT' as const,
    region: 'us-west-2',
    status,
    created: new Date(0),
  });
  const ids = (fired: Array<{ id: string } | undefined>) => fired.map((n) => n?.id ?? '<whole tree>');

  it('a refresh redraws each root, never the whole tree (which made a reveal meet "No tree item with id"), unless the regions changed', async () => {
    let regions = ['us-west-2'];
    const model = new JobsModel({
      backend: { listPage: async () => ({ jobs: [] }) } as unknown as JobsBackend,
      regions: () => regions,
      explain: (error) => ({ kind: 'other', sentence: String(error) }),
      hasRollouts: () => false,
    });
    await model.getChildren();
    const fired: Array<{ id: string } | undefined> = [];
    model.onDidChange((node) => fired.push(node));
    model.refresh();
    assert.deepEqual(ids(fired), ['us-west-2/AgentRFT', 'us-west-2/AgentRFTEvaluation']);
    fired.length = 0;
    regions = ['us-west-2', 'eu-west-1'];
    model.refresh();
    assert.deepEqual(ids(fired), ['<whole tree>'], 'new roots need the whole tree');
  });

  it('polling redraws each running job after its root, so its row comes from the same describe as its tooltip', async () => {
    let step = 42;
    const model = new JobsModel({
      backend: {
        listPage: async () => ({ jobs: [job('running', 'InProgress'), job('done', 'Completed')] }),
        describe: async (_r: string, _c: string, name: string) => ({
          ...job(name, name === 'running' ? 'InProgress' : 'Completed'),
          transitions: [],
          document: { ServiceOutput: { ProgressInfo: { CurrentStep: step, MaxSteps: 100 } } },
        }),
      } as unknown as JobsBackend,
      regions: () => ['us-west-2'],
      explain: (error) => ({ kind: 'other', sentence: String(error) }),
      hasRollouts: () => false,
    });
    const [training] = (await model.getChildren()) as RootNode[];
    await model.getChildren(training);
    const fired: Array<{ id: string } | undefined> = [];
    model.onDidChange((node) => fired.push(node));
    step = 47;
    await model.refreshInProgress();
    assert.deepEqual(ids(fired), ['us-west-2/AgentRFT', 'us-west-2/AgentRFT/running']);
  });
});

describe('jobs model with a service that never answers', () => {
  it('ends the spinner with an error node once the request times out', async () => {
    const env = { ...process.env };
    Object.assign(process.env, { AWS_ACCESS_KEY_ID: 'test', AWS_SECRET_ACCESS_KEY: 'test' });
    const sockets: Socket[] = [];
    const server = createServer((socket) => void sockets.push(socket)).listen(0, '127.0.0.1');
    await once(server, 'listening');
    const url = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
    const aws = new AwsClients(() => ({ region: 'us-east-1', endpoint: url }));
    try {
      const model = new JobsModel({
        backend: sageMakerJobsBackend(aws),
        regions: () => ['us-east-1'],
        explain: (error, action) => explainAwsError(error, { action }),
        hasRollouts: () => false,
        requestTimeoutMs: 300,
      });
      const [training] = (await model.getChildren()) as RootNode[];
      const [node] = await model.getChildren(training);
      assert.ok(node instanceof MessageNode && node.message === 'error');
      assert.deepEqual(
        [node.id, node.fix?.title, node.fix?.command, node.fix?.arguments],
        ['us-east-1/AgentRFT#error', 'Retry', 'mtrl.refreshJobs', [training]],
      );
      assert.equal(
        node.text,
        'Listing training jobs in us-east-1 got no answer within 0.3 s. Check the network or mtrl.aws.endpoint, then Retry.',
      );
    } finally {
      aws.reset();
      for (const socket of sockets) socket.destroy();
      server.close();
      process.env = env;
    }
  });
});
