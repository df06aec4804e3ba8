import { strict as assert } from 'node:assert';
import { CreateJobCommand } from '@aws-sdk/client-sagemaker';
import { AwsClients } from '../../../../src/aws/clients';
import { describeAwsError, explainAwsError } from '../../../../src/aws/errors';
import { DEFAULT_PRICING, formatDollars } from '../../../../src/core/jobs/pricing';
import type { JobDetails } from '../../../../src/core/jobs/job';
import { jobDescription } from '../../../../src/core/jobs/summary';
import { jobTooltip } from '../../../../src/core/jobs/tooltip';
import { sageMakerJobsBackend } from '../../../../src/services/jobs/backend';
import { cloudWatchJobLogSource, JobLogWindow } from '../../../../src/services/jobs/logWindow';
import { JobsModel } from '../../../../src/services/jobs/model';
import { JobNode, type JobsTreeNode, type PipelineNode, type RootNode } from '../../../../src/services/jobs/nodes';
import { LoadMoreNode, MessageNode } from '../../../../src/services/treeNodes';
import { pipelineRole } from '../../../../src/services/jobs/pipelines';
import { JobsPoller, type Timer } from '../../../../src/services/jobs/poller';
import { ManualClock } from '../../../../src/emulator/clock';
import { startEmulator, type Emulator } from '../../../../src/emulator/server';
import { SEEDED } from '../../../../src/emulator/seed';
import { ceiling } from '../../../host/lib/ceiling';

const REGION = 'us-east-1';

function modelFor(url: string, clock: ManualClock, hasRollouts = false) {
  const aws = new AwsClients(() => ({ region: REGION, endpoint: url }));
  const backend = sageMakerJobsBackend(aws);
  const model = new JobsModel({
    backend,
    regions: () => [REGION],
    explain: (error, action) => explainAwsError(error, { endpoint: url, action }),
    hasRollouts: () => hasRollouts,
    now: () => new Date(clock.now()),
  });
  return { aws, backend, model };
}

/** A small valid training document, as CreateJob accepts it. */
const pagingDocument = (i: number) =>
  JSON.stringify({
    AgentConfig: { BedrockAgentCoreConfig: { AgentRuntimeArn: SEEDED.runtime, Qualifier: 'DEFAULT' } },
    InputDataConfig: [{ ChannelName: 'train', DataSource: { S3DataSource: { S3DataType: 'S3Prefix', S3Uri: SEEDED.train } } }],
    OutputDataConfig: { S3OutputPath: `s3://mtrl-demo/output/${i}` },
    TrainingConfig: {
      BaseModelArn: 'arn:aws:sagemaker:us-east-1:aws:hub-content/SageMakerPublicHub/Model/openai-reasoning-gpt-oss-20b',
      AcceptEula: true,
      HyperParameters: { max_steps: '10' },
    },
  });

const names = (nodes: JobsTreeNode[]) => nodes.map((n) => (n instanceof JobNode ? n.jobName : n.kind));
const details = (node: JobsTreeNode) => (node as JobNode).details as JobDetails;

describe('jobs tree against the emulator', function () {
  this.timeout(ceiling(60_000));
  let emulator: Emulator;
  let clock: ManualClock;
  let env: NodeJS.ProcessEnv;

  before(async () => {
    env = { ...process.env };
    Object.assign(process.env, { AWS_ACCESS_KEY_ID: 'test', AWS_SECRET_ACCESS_KEY: 'test' });
    clock = new ManualClock(Date.now());
    emulator = await startEmulator({ clock });
  });
  after(async () => {
    await emulator.close();
    process.env = env;
  });

  it('shows a Training and an Evaluation root per region, with the seeded jobs newest first', async () => {
    const { model } = modelFor(emulator.url, clock);
    const roots = (await model.getChildren()) as RootNode[];
    assert.deepEqual(
      roots.map((r) => [r.region, r.category]),
      [
        [REGION, 'AgentRFT'],
        [REGION, 'AgentRFTEvaluation'],
      ],
    );
    assert.deepEqual(names(await model.getChildren(roots[0])), [
      SEEDED.inProgressJob,
      SEEDED.failedJob,
      SEEDED.completedJob,
      SEEDED.restartedJob,
      SEEDED.refundJob,
    ]);
    assert.deepEqual(names(await model.getChildren(roots[1])), [
      SEEDED.trainedEvaluation,
      SEEDED.baseEvaluation,
      'pipeline',
      SEEDED.refundBaseEvaluation,
    ]);
    const contexts = roots[0].jobs.map((j) => j.contextValue);
    assert.deepEqual(contexts, [
      'job:AgentRFT:InProgress',
      'job:AgentRFT:Failed',
      'job:AgentRFT:Completed',
      'job:AgentRFT:Completed',
      'job:AgentRFT:Completed',
    ]);
    assert.equal(roots[0].jobs[2].arn, `arn:aws:sagemaker:us-east-1:111122223333:job/AgentRFT/${SEEDED.completedJob}`);
  });

  it("shows the SDK pipeline's evaluation pair under one node per execution, base before fine-tuned", async () => {
    const { model } = modelFor(emulator.url, clock);
    const [, evaluation] = (await model.getChildren()) as RootNode[];
    const pipeline = (await model.getChildren(evaluation)).find((n): n is PipelineNode => n.kind === 'pipeline');
    assert.ok(pipeline, 'no pipeline node');
    assert.equal(pipeline.execution, 'q8hvze02od4o');
    const members = (await model.getChildren(pipeline)) as JobNode[];
    assert.deepEqual(
      members.map((m) => [m.jobName, pipelineRole(m), m.pipeline === pipeline]),
      [
        [SEEDED.pipelineBaseEvaluation, 'base', true],
        [SEEDED.pipelineFineTunedEvaluation, 'fine-tuned', true],
      ],
    );
  });

  it('describes each job as step · cost · age, and a failed one by its diagnosis', async () => {
    const { model } = modelFor(emulator.url, clock);
    const [training] = (await model.getChildren()) as RootNode[];
    const [running, failed, completed] = await model.getChildren(training);
    const now = new Date(clock.now());
    const done = details(completed);
    const usage = done.document?.ServiceOutput?.BillableTokenUsage;
    assert.ok(usage?.PrefillTokenCount && usage.SampleTokenCount && usage.TrainTokenCount, 'the completed job reports token usage');
    const expected = (usage.PrefillTokenCount * 0.12 + usage.SampleTokenCount * 0.3 + usage.TrainTokenCount * 0.36) / 1e6;
    assert.equal(jobDescription(done, DEFAULT_PRICING, now), `100/100 · ${formatDollars(expected)} · 2d ago`);
    assert.match(
      jobDescription(details(running), DEFAULT_PRICING, now),
      /^\d+\/100 · \$\d+\.\d\d · ETA \d+[hm] \d\d[ms] · (just now|\d+m ago)$/,
    );
    assert.equal(jobDescription(details(failed), DEFAULT_PRICING, now), 'Job role not trusted · 2d ago');
    const [trained, base] = await model.getChildren(model.getRoots()[1]);
    for (const evaluation of [trained, base])
      assert.match(jobDescription(details(evaluation), DEFAULT_PRICING, now), /^pass@1 [01]\.\d\d · \$\d+\.\d\d · (\d+h|1d) ago$/);
    const sum = model.rootCost(training, DEFAULT_PRICING);
    assert.ok(sum !== undefined && sum > expected, 'the root sums the running job too');
  });

  it('puts configuration, tokens, MLflow and the timeline in the tooltips', async () => {
    const { model } = modelFor(emulator.url, clock);
    const [training, evaluation] = (await model.getChildren()) as RootNode[];
    const [, failed, completed] = await model.getChildren(training);
    const now = new Date(clock.now());
    const md = jobTooltip(details(completed), DEFAULT_PRICING, now);
    assert.ok(md.includes(`\`${SEEDED.runtime}\` (DEFAULT)`));
    assert.ok(md.includes(`| Dataset (train) | \`${SEEDED.train}\` |`));
    assert.ok(md.includes(`| Dataset (validation) | \`${SEEDED.validation}\` |`));
    assert.ok(md.includes('`sampling_max_tokens=8192`, `max_epochs=20`'), md);
    assert.ok(!md.includes('global_batch_size'), 'defaults are not listed');
    assert.match(md, /\| Rollouts \| 102,400 \/ 102,400 \|/);
    assert.match(md, /\| Prefill \| [\d.]+M \| \$0\.12 \| \$[\d.]+ \|/);
    assert.match(md, /\| MLflow \| experiment `wordle`/);
    assert.match(md, /\| Starting \| .* \| \d+m \d\ds \|/);
    assert.match(md, /\| Completed \| /);
    const failure = jobTooltip(details(failed), DEFAULT_PRICING, now);
    assert.match(failure, /Job role not trusted.*job\\\.sagemaker\\\.amazonaws\\\.com/);
    assert.match(failure, /Reason: `ClientError: Could not assume role arn:aws:iam::111122223333:role\/MtrlWrongTrustRole/);
    const [trained] = await model.getChildren(evaluation);
    const evalMd = jobTooltip(details(trained), DEFAULT_PRICING, now);
    assert.match(evalMd, /\| Input adapter \| `arn:aws:sagemaker:us-east-1:111122223333:model-package\//);
    assert.match(evalMd, /run `fine-tuned-model-eval`/);
  });

  it('expands a job into Configuration, Status history, Service logs, and Rollouts only when the replay board exists', async () => {
    const { model } = modelFor(emulator.url, clock);
    const [training] = (await model.getChildren()) as RootNode[];
    const [, , completed] = await model.getChildren(training);
    const sections = await model.getChildren(completed);
    assert.deepEqual(
      sections.map((s) => (s.kind === 'section' ? s.section : s.kind)),
      ['configuration', 'history', 'logs'],
    );
    const history = await model.getChildren(sections[1]);
    assert.deepEqual(
      history.map((h) => (h.kind === 'transition' ? h.entry.status : h.kind)),
      ['Starting', 'Downloading', 'Training', 'Uploading', 'Completed'],
    );
    const withReplay = modelFor(emulator.url, clock, true).model;
    const [t2] = (await withReplay.getChildren()) as RootNode[];
    const [first] = await withReplay.getChildren(t2);
    assert.deepEqual(
      (await withReplay.getChildren(first)).map((s) => (s.kind === 'section' ? s.section : s.kind)),
      ['configuration', 'history', 'logs', 'rollouts'],
    );
  });

  it('filters by name and status on the service, and says when nothing matches', async () => {
    const { model } = modelFor(emulator.url, clock);
    const [training, evaluation] = (await model.getChildren()) as RootNode[];
    model.setQuery({ nameContains: 'eval-base' });
    assert.equal(model.filterDescription(), 'name ~ "eval-base"');
    assert.deepEqual(names(await model.getChildren(evaluation)), [SEEDED.baseEvaluation]);
    const none = await model.getChildren(training);
    assert.ok(none[0] instanceof MessageNode && none[0].message === 'noMatch');
    assert.deepEqual(
      [none[0].id, none[0].text, none[0].fix?.command],
      ['us-east-1/AgentRFT#noMatch', 'No jobs match the filter.', 'mtrl.clearJobsFilter'],
    );
    model.setQuery({ nameContains: undefined, status: 'Failed' });
    assert.deepEqual(names(await model.getChildren(training)), [SEEDED.failedJob]);
    model.setQuery({ status: undefined, sortBy: 'Name', ascending: true });
    assert.equal(model.filterDescription(), 'by name ↑');
    assert.deepEqual(names(await model.getChildren(training)), [
      SEEDED.restartedJob,
      SEEDED.refundJob,
      SEEDED.completedJob,
      SEEDED.inProgressJob,
      SEEDED.failedJob,
    ]);
  });

  it("reads a job's service log window and pages back", async () => {
    const { aws } = modelFor(emulator.url, clock);
    const window = new JobLogWindow(
      cloudWatchJobLogSource(aws, { region: REGION, category: 'AgentRFT', jobName: SEEDED.completedJob }),
      40,
    );
    await window.load();
    assert.equal(window.streamCount, 1);
    assert.equal(window.lines.length, 40);
    assert.match(window.lines.at(-1)!.message, /Completed|Step 100\/100/);
    assert.ok(window.hasOlder);
    const added = await window.loadOlder();
    assert.equal(added, 40);
    assert.ok(window.lines[0].timestamp <= window.lines[40].timestamp);
    while (window.hasOlder) await window.loadOlder();
    assert.match(window.lines[0].message, /\[Starting\]/);
    assert.equal(new Set(window.lines.map((l) => `${l.timestamp} ${l.message}`)).size, window.lines.length, 'no line twice');
    assert.match(window.render('# header'), /^# header\n\d{4}-\d\d-\d\dT.*\[Starting\]/);
  });
});

describe('jobs tree paging, stop and polling against the emulator', function () {
  this.timeout(ceiling(120_000));
  let emulator: Emulator;
  let clock: ManualClock;
  let env: NodeJS.ProcessEnv;

  before(async () => {
    env = { ...process.env };
    Object.assign(process.env, { AWS_ACCESS_KEY_ID: 'test', AWS_SECRET_ACCESS_KEY: 'test' });
    clock = new ManualClock(Date.now());
    emulator = await startEmulator({ clock });
  });
  after(async () => {
    await emulator.close();
    process.env = env;
  });

  it('lists 50 jobs, then the rest with Load more', async () => {
    const { aws, model } = modelFor(emulator.url, clock);
    for (let i = 0; i < 55; i++) {
      clock.advance(1000);
      await aws.sagemaker(REGION).send(
        new CreateJobCommand({
          JobName: `paging-${String(i).padStart(2, '0')}`,
          JobCategory: 'AgentRFT',
          RoleArn: SEEDED.jobRole,
          JobConfigSchemaVersion: '1.0.0',
          JobConfigDocument: pagingDocument(i),
        }),
      );
    }
    const [training] = (await model.getChildren()) as RootNode[];
    const first = await model.getChildren(training);
    assert.equal(first.length, 51);
    const more = first[50];
    assert.ok(more instanceof LoadMoreNode);
    assert.deepEqual(
      [more.id, more.tooltip, more.fix.command, more.fix.arguments],
      ['us-east-1/AgentRFT#more', 'List the next 50 jobs', 'mtrl.loadMoreJobs', [training]],
    );
    assert.deepEqual(names(first.slice(0, 2)), ['paging-54', 'paging-53']);
    await model.loadMore(training);
    const all = await model.getChildren(training);
    assert.equal(all.length, 60, '55 new jobs and the 5 seeded ones, no Load more');
    assert.ok(all.every((n) => n instanceof JobNode));
    assert.equal(new Set(names(all)).size, 60);
  });

  it('stops the running job, notices Stopping then Stopped, and polling ends when nothing is in progress', async () => {
    const { model, backend } = modelFor(emulator.url, clock);
    model.setQuery({ nameContains: SEEDED.inProgressJob });
    const [training] = (await model.getChildren()) as RootNode[];
    const [running] = (await model.getChildren(training)) as JobNode[];
    assert.equal(running.status, 'InProgress');
    const seen: string[] = [];
    const pending: Array<() => void> = [];
    const timer: Timer = { setTimeout: (cb) => pending.push(cb), clearTimeout: () => undefined };
    let polled: Promise<void> = Promise.resolve();
    const poller = new JobsPoller(
      {
        hasInProgress: () => model.inProgress().length > 0,
        poll: () => (polled = model.refreshInProgress().then((changes) => void seen.push(...changes.map((c) => c.to)))),
      },
      30_000,
      timer,
    );
    poller.setVisible(true);
    assert.equal(pending.length, 1, 'a running job is polled');

    await backend.stop(REGION, 'AgentRFT', running.jobName);
    await model.refreshJob(running);
    assert.equal(running.status, 'Stopping');
    assert.equal(running.contextValue, 'job:AgentRFT:Stopping');
    for (let i = 0; i < 20 && pending.length; i++) {
      clock.advance(60_000);
      pending.shift()!();
      await polled;
      // The poller schedules its next poll once the poll's promise settled: a turn of the event loop later.
      await new Promise((resolve) => setImmediate(resolve));
    }
    assert.equal(running.status, 'Stopped');
    assert.deepEqual(seen, ['Stopped']);
    assert.equal(pending.length, 0, 'no poll is scheduled once nothing is in progress');
    assert.equal(poller.scheduled, false);
  });

  it("follows a running job's service log: Load newer brings only the lines written since", async () => {
    const { aws, backend } = modelFor(emulator.url, clock);
    const name = 'follow-me';
    await aws.sagemaker(REGION).send(
      new CreateJobCommand({
        JobName: name,
        JobCategory: 'AgentRFT',
        RoleArn: SEEDED.jobRole,
        JobConfigSchemaVersion: '1.0.0',
        JobConfigDocument: pagingDocument(0),
      }),
    );
    clock.advance(1000);
    const window = new JobLogWindow(cloudWatchJobLogSource(aws, { region: REGION, category: 'AgentRFT', jobName: name }), 500);
    await window.load();
    const before = window.lines.length;
    assert.ok((await backend.describe(REGION, 'AgentRFT', name)).status === 'InProgress');
    clock.advance(6 * 3_600_000);
    const added = await window.loadNewer();
    assert.ok(added > 0, 'new steps were logged');
    assert.equal(window.lines.length, before + added);
    assert.equal(new Set(window.lines.map((l) => `${l.timestamp} ${l.message}`)).size, window.lines.length, 'no line twice');
    assert.equal(await window.loadNewer(), 0, 'nothing new without time passing');
  });

  it('deletes a finished job and refuses a running one with a sentence', async () => {
    const { model, backend } = modelFor(emulator.url, clock);
    model.setQuery({ nameContains: 'paging-0' });
    const [training] = (await model.getChildren()) as RootNode[];
    const jobs = (await model.getChildren(training)) as JobNode[];
    const finished = jobs.find((j) => j.status === 'Completed');
    assert.ok(finished, `a finished paging job: ${jobs.map((j) => j.status).join(', ')}`);
    await backend.delete(REGION, 'AgentRFT', finished.jobName);
    model.remove(finished);
    model.refresh();
    assert.ok(!names(await model.getChildren(training)).includes(finished.jobName));
    const { aws } = modelFor(emulator.url, clock);
    await aws.sagemaker(REGION).send(
      new CreateJobCommand({
        JobName: 'still-running',
        JobCategory: 'AgentRFT',
        RoleArn: SEEDED.jobRole,
        JobConfigSchemaVersion: '1.0.0',
        JobConfigDocument: pagingDocument(1),
      }),
    );
    await assert.rejects(backend.delete(REGION, 'AgentRFT', 'still-running'), (e: Error) =>
      /Stop it and wait until it has stopped/.test(describeAwsError(e)),
    );
  });

  it('shows an error node with a sentence when the service cannot be reached', async () => {
    const { model } = modelFor('http://127.0.0.1:9', clock);
    const [training] = (await model.getChildren()) as RootNode[];
    const [node] = await model.getChildren(training);
    assert.ok(node instanceof MessageNode && node.message === 'error');
    assert.match(node.text, /^Listing training jobs in us-east-1 failed: cannot reach http:\/\/127\.0\.0\.1:9 \(ECONNREFUSED\)/);
  });
});

describe('jobs tree with expired credentials', () => {
  it('turns the error into a sentence on the root instead of a spinner', async () => {
    const env = { ...process.env };
    Object.assign(process.env, { AWS_ACCESS_KEY_ID: 'test', AWS_SECRET_ACCESS_KEY: 'test' });
    const clock = new ManualClock(Date.now());
    const emulator = await startEmulator({ clock, expiredCredentials: true });
    try {
      const { model } = modelFor(emulator.url, clock);
      const [, evaluation] = (await model.getChildren()) as RootNode[];
      const [node] = await model.getChildren(evaluation);
      assert.ok(node instanceof MessageNode && node.message === 'error');
      assert.match(node.text, /credentials .* have expired/);
    } finally {
      await emulator.close();
      process.env = env;
    }
  });
});
