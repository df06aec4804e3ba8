import assert from 'node:assert/strict';
import { readdirSync, readFileSync } from 'node:fs';
import path from 'node:path';
import {
  AbortMultipartUploadCommand,
  CreateBucketCommand,
  CreateMultipartUploadCommand,
  DeleteObjectCommand,
  HeadBucketCommand,
  ListBucketsCommand,
  ListObjectsV2Command,
  PutObjectCommand,
} from '@aws-sdk/client-s3';
import { GetAgentRuntimeCommand } from '@aws-sdk/client-bedrock-agentcore-control';
import { ListRolesCommand } from '@aws-sdk/client-iam';
import { DescribeJobCommand, DescribeMlflowAppCommand } from '@aws-sdk/client-sagemaker';
import { deleteAgentRuntime, getAgentRuntime, invokeAgentRuntime, listAgentRuntimes } from '../../../src/aws/agentcore';
import { deleteRole, deleteRolePolicy, detachRolePolicy, getRole, listRoles, rolePolicies } from '../../../src/aws/iam';
import { getLambdaFunction, invokeLambda } from '../../../src/aws/lambda';
import { deleteRule, getTopicAttributes, probeRules } from '../../../src/aws/notifications';
import { enableNotifications } from '../../../src/services/launch/notifications';
import { lambdaSmokeRequest } from '../../../src/core/jobs/lambdaAgent';
import { describeLogGroups, describeLogStreams, filterLogEvents, getLogEvents } from '../../../src/aws/logs';
import { deleteMlflowApp, listMlflowApps } from '../../../src/aws/mlflowApps';
import { deleteObjects, getObject, headObject, listFolder, upload } from '../../../src/aws/s3';
import {
  createJob,
  createPresignedMlflowAppUrl,
  deleteJob,
  describeJob,
  describeJobSchemaVersion,
  listHubModels,
  listJobs,
  listJobSchemaVersions,
  stopJob,
} from '../../../src/aws/sagemaker';
import { serviceQuotaValue } from '../../../src/aws/serviceQuotas';
import { callerIdentity } from '../../../src/aws/sts';
import { buildEvaluationDocument, buildTrainingDocument } from '../../../src/core/jobs/document';
import { ManualClock } from '../../../src/emulator/clock';
import { SEEDED } from '../../../src/emulator/seed';
import { SERVED_OPERATIONS } from '../../../src/emulator/server';
import { GPT_OSS, collect, withEmulator } from './helpers';
import { recordCalls, type Exchange } from './sdkRecorder';
import { check, checkXml, enumTable, operationShapes, parseXml, streamsOutput, type EnumTable } from './serviceModel';
import { ceiling } from '../../host/lib/ceiling';

/** The SDK clients of each signing name the emulator serves (AgentCore's control and data planes share one). */
const CLIENTS: Record<string, string[]> = {
  sagemaker: ['sagemaker'],
  logs: ['cloudwatch-logs'],
  s3: ['s3'],
  sts: ['sts'],
  iam: ['iam'],
  'bedrock-agentcore': ['bedrock-agentcore', 'bedrock-agentcore-control'],
  servicequotas: ['service-quotas'],
  lambda: ['lambda'],
  sns: ['sns'],
  events: ['eventbridge'],
};
const PACKAGES = Object.values(CLIENTS)
  .flat()
  .map((c) => `@aws-sdk/client-${c}`);

/** Every problem of one recorded call: its input against the input shape, its parsed output and its body on the wire (JSON or XML) against the output shape. */
function problemsOf(e: Exchange, enums: EnumTable): string[] {
  const { name, input, output } = operationShapes(e.schema);
  const problems = check(input, e.input, 'sdk', enums, `${name} input`);
  if (e.output === undefined) return problems;
  problems.push(...check(output, e.output, 'sdk', enums, `${name} output`));
  if (!e.body) return problems;
  if (e.contentType?.includes('json'))
    problems.push(...check(output, JSON.parse(e.body), e.contentType.includes('amz-json') ? 'json' : 'rest-json', enums, `${name} body`));
  else if (e.contentType?.includes('xml'))
    problems.push(
      ...checkXml(output, parseXml(e.body), e.clientPackage.endsWith('-s3') ? 'rest-xml' : 'query', name, enums, `${name} xml`),
    );
  else problems.push(`${name}: a body of type ${e.contentType} is neither JSON nor XML`);
  return problems;
}

describe('emulator: requests and responses against the service models of the installed SDK', () => {
  const enums = new Map(PACKAGES.map((p) => [p, enumTable(p)]));

  it('every operation the emulator serves answers the product calls with what the model requires, and the product sends valid requests', async function () {
    this.timeout(ceiling(120_000));
    const clock = new ManualClock();
    await withEmulator({ clock }, async (emulator, aws) => {
      const calls: Exchange[] = [];
      const clients = [
        aws.sagemaker(),
        aws.logs(),
        aws.s3(),
        aws.sts(),
        aws.iam(),
        aws.agentCore(),
        aws.agentCoreControl(),
        aws.serviceQuotas(),
        aws.lambda(),
        aws.sns(),
        aws.events(),
      ];
      assert.equal(clients.length, PACKAGES.length);
      clients.forEach((client, i) => recordCalls(client, PACKAGES[i], calls, streamsOutput));

      // Identity, roles, runtimes and the MTRL quota (pre-flight, launch wizard, smoke test).
      await callerIdentity(aws.sts());
      assert.equal(await serviceQuotaValue(aws.serviceQuotas(), 'sagemaker', 'L-A9CEE0B1'), 1000);
      await getRole(aws.iam(), 'MtrlJobRole');
      await collect(listRoles(aws.iam()));
      const runtimes = await collect(listAgentRuntimes(aws.agentCoreControl()));
      await getAgentRuntime(aws.agentCoreControl(), runtimes[0].agentRuntimeId as string);
      await invokeAgentRuntime(aws.agentCore(), {
        agentRuntimeArn: SEEDED.runtime,
        payload: {
          prompt: JSON.stringify({ answer: 'beach', id: 'r' }),
          metadata: { jobArn: 'arn:aws:sagemaker:us-east-1:111122223333:job/AgentRFT/x', rolloutId: 'r1' },
        },
      });

      // A bring-your-own-agent Lambda (pre-flight): its configuration and the documented smoke call.
      const forwarder = 'arn:aws:lambda:us-east-1:111122223333:function:mtrl-agent-forwarder';
      await getLambdaFunction(aws.lambda(), forwarder);
      await invokeLambda(aws.lambda(), forwarder, lambdaSmokeRequest(forwarder));

      // Notifications (pre-flight and launch): the topic check, the rules probe, the SDK's rule and target, and its deletion.
      await getTopicAttributes(aws.sns(), SEEDED.topic);
      await probeRules(aws.events(), 'sm-pysdk-job-notif', SEEDED.eventBus);
      const rule = await enableNotifications(aws, { SnsTopicArn: SEEDED.topic, EventBusArn: SEEDED.eventBus }, 'us-east-1');
      await deleteRule(aws.events(), rule.slice(rule.lastIndexOf('/') + 1), SEEDED.eventBus);

      // Datasets: upload (single and multipart), head, ranged read, folder listing; bucket calls the SDK makes around them.
      await aws.s3().send(new CreateBucketCommand({ Bucket: 'models-check' }));
      await aws.s3().send(new HeadBucketCommand({ Bucket: 'models-check' }));
      await aws.s3().send(new ListBucketsCommand({}));
      await upload(aws.s3(), { bucket: 'models-check', key: 'wordle/train.jsonl' }, '{"prompt":"x"}\n', {
        contentType: 'application/jsonl',
      });
      await upload(aws.s3(), { bucket: 'models-check', key: 'wordle/big.jsonl' }, Buffer.alloc(6 * 1024 * 1024, 'a'), {
        partSize: 5 * 1024 * 1024,
      });
      await headObject(aws.s3(), { bucket: 'models-check', key: 'wordle/big.jsonl' });
      await collect(getObject(aws.s3(), { bucket: 'models-check', key: 'wordle/train.jsonl' }, 'bytes=0-4'));
      await collect(listFolder(aws.s3(), 'models-check', ''));
      await aws.s3().send(new ListObjectsV2Command({ Bucket: 'models-check', MaxKeys: 1, StartAfter: 'a' }));
      await aws.s3().send(new PutObjectCommand({ Bucket: 'models-check', Key: 'tmp', Body: 'x', Metadata: { a: 'b' } }));
      await aws.s3().send(new DeleteObjectCommand({ Bucket: 'models-check', Key: 'tmp' }));
      emulator.world.undeletableKeys.add('models-check/wordle/big.jsonl');
      const refused = await deleteObjects(aws.s3(), 'models-check', ['wordle/train.jsonl', 'wordle/big.jsonl']);
      assert.deepEqual(
        refused.map((f) => f.key),
        ['wordle/big.jsonl'],
        'DeleteObjects answered its per-key error',
      );
      const { UploadId } = await aws.s3().send(new CreateMultipartUploadCommand({ Bucket: 'models-check', Key: 'aborted' }));
      await aws.s3().send(new AbortMultipartUploadCommand({ Bucket: 'models-check', Key: 'aborted', UploadId }));

      // Jobs: schema, launch with the product's builders, list with paging and filters, describe in every state, stop, delete.
      await listJobSchemaVersions(aws.sagemaker(), 'AgentRFT');
      await describeJobSchemaVersion(aws.sagemaker(), 'AgentRFTEvaluation');
      const training = buildTrainingDocument({
        runtimeArn: SEEDED.runtime,
        trainUri: SEEDED.train,
        validationUri: SEEDED.validation,
        outputPath: 's3://mtrl-demo/out',
        baseModelArn: GPT_OSS,
        mlflowArn: SEEDED.mlflowApp,
        experimentName: 'check',
        hyperparameters: { max_steps: '2' },
      });
      await createJob(aws.sagemaker(), {
        JobName: 'models-check',
        JobCategory: 'AgentRFT',
        RoleArn: SEEDED.jobRole,
        JobConfigSchemaVersion: '1.0.0',
        JobConfigDocument: JSON.stringify(training),
        Tags: [{ Key: 'team', Value: 'rl' }],
      });
      const evaluation = buildEvaluationDocument({
        runtimeArn: SEEDED.runtime,
        evaluationUri: SEEDED.validation,
        outputPath: 's3://mtrl-demo/eval',
        baseModelArn: GPT_OSS,
        mlflowArn: SEEDED.mlflowApp,
        hyperparameters: {},
      });
      await createJob(aws.sagemaker(), {
        JobName: 'models-check-eval',
        JobCategory: 'AgentRFTEvaluation',
        RoleArn: SEEDED.jobRole,
        JobConfigSchemaVersion: '1.0.0',
        JobConfigDocument: JSON.stringify(evaluation),
      });
      await collect(listJobs(aws.sagemaker(), { JobCategory: 'AgentRFT', MaxResults: 2, SortBy: 'CreationTime', SortOrder: 'Descending' }));
      await collect(listJobs(aws.sagemaker(), { JobCategory: 'AgentRFTEvaluation', StatusEquals: 'Completed', NameContains: 'wordle' }));
      for (const [jobName, category] of [
        [SEEDED.completedJob, 'AgentRFT'],
        [SEEDED.inProgressJob, 'AgentRFT'],
        [SEEDED.failedJob, 'AgentRFT'],
        [SEEDED.trainedEvaluation, 'AgentRFTEvaluation'],
        ['models-check', 'AgentRFT'],
      ] as const) {
        await describeJob(aws.sagemaker(), { jobName, category });
      }
      await stopJob(aws.sagemaker(), { jobName: 'models-check', category: 'AgentRFT' });
      clock.advance(10 * 60_000);
      await describeJob(aws.sagemaker(), { jobName: 'models-check', category: 'AgentRFT' });
      await deleteJob(aws.sagemaker(), { jobName: 'models-check', category: 'AgentRFT' });
      // MLflow apps (launch wizard, metrics, resources and cleanup); the model catalog's hub lookup is not served, but its request is checked.
      await collect(listMlflowApps(aws.sagemaker()));
      // Served (the console and boto3 use it) though the product no longer sends it.
      await aws.sagemaker().send(new DescribeMlflowAppCommand({ Arn: SEEDED.mlflowApp }));
      await createPresignedMlflowAppUrl(aws.sagemaker(), SEEDED.mlflowApp, 300);
      await deleteMlflowApp(aws.sagemaker(), SEEDED.mlflowApp);
      await assert.rejects(listHubModels(aws.sagemaker(), 'SageMakerPublicHub'), /does not implement SageMaker ListHubContents/);

      // Logs: groups, streams, one stream read, a filtered scan.
      const groups = await collect(describeLogGroups(aws.logs(), '/aws/'));
      const runtimeGroup = groups.find((g) => g.logGroupName?.includes('bedrock-agentcore/runtimes/wordle_agent-'))?.logGroupName as string;
      const streams = await collect(describeLogStreams(aws.logs(), runtimeGroup, { newestFirst: true }));
      await collect(describeLogStreams(aws.logs(), '/aws/sagemaker/Job/AgentRFT', { prefix: 'wordle' }));
      const events = getLogEvents(aws.logs(), { logGroupName: runtimeGroup, logStreamName: streams[0].logStreamName as string });
      for await (const _ of events) break;
      const filtered = filterLogEvents(aws.logs(), { logGroupName: runtimeGroup, filterPattern: 'UpdateReward', startTime: 0 });
      for await (const _ of filtered) break;

      // Cleanup of a role and a runtime (resources view), last: they take seeded resources away.
      const policies = await rolePolicies(aws.iam(), 'MtrlJobRole');
      for (const arn of policies.attached) await detachRolePolicy(aws.iam(), 'MtrlJobRole', arn);
      for (const name of policies.inline) await deleteRolePolicy(aws.iam(), 'MtrlJobRole', name);
      await deleteRole(aws.iam(), 'MtrlJobRole');
      await deleteAgentRuntime(aws.agentCoreControl(), runtimes[0].agentRuntimeId as string);

      assert.deepEqual(Object.keys(SERVED_OPERATIONS).sort(), Object.keys(CLIENTS).sort(), 'every served service has its SDK clients');
      const answered = (service: string) =>
        new Set(
          calls
            .filter((c) => c.output !== undefined && CLIENTS[service].some((n) => c.clientPackage.endsWith(`-${n}`)))
            .map((c) => c.operation),
        );
      for (const [service, operations] of Object.entries(SERVED_OPERATIONS)) {
        assert.ok(operations.length > 0, `${service} serves operations`);
        const driven = answered(service);
        assert.deepEqual(
          operations.filter((op) => !driven.has(op)),
          [],
          `every ${service} operation the emulator serves was driven and answered`,
        );
        assert.deepEqual(
          [...driven].filter((op) => !operations.includes(op)),
          [],
          `every ${service} operation answered is in the emulator's routing`,
        );
      }
      const sent = new Set(calls.map((c) => c.operation));
      for (const key of emulator.requests.keys()) {
        const [, op] = key.split(':');
        if (/^[A-Z][a-z]/.test(op)) assert.ok(sent.has(op), `${key} reached the emulator outside the recording`);
      }
      const problems = calls.flatMap((c) => problemsOf(c, enums.get(c.clientPackage) as EnumTable));
      assert.ok(calls.filter((c) => c.body && c.contentType?.includes('json')).length >= 20, 'JSON bodies were checked on the wire');
      assert.ok(calls.filter((c) => c.body && c.contentType?.includes('xml')).length >= 10, 'XML bodies were checked on the wire');
      assert.deepEqual(problems, []);
    });
  });

  it('has the enum values of every client that declares enums, and STS declares none: no enum of a served operation goes unchecked', () => {
    for (const clientPackage of PACKAGES) {
      const models = path.join(path.dirname(require.resolve(`${clientPackage}/package.json`)), 'dist-types/models');
      const declared = readdirSync(models).some((f) => /^export declare const \w+: \{/m.test(readFileSync(path.join(models, f), 'utf8')));
      assert.equal((enums.get(clientPackage) as EnumTable).size > 0, declared, clientPackage);
    }
    assert.equal(enums.get('@aws-sdk/client-sts')?.size, 0);
    assert.ok(enums.get('@aws-sdk/client-sagemaker')?.get('DescribeJobResponse.JobStatus')?.includes('InProgress'));
    assert.ok(enums.get('@aws-sdk/client-s3')?.get('Object.StorageClass')?.includes('STANDARD'));
    assert.ok(enums.get('@aws-sdk/client-bedrock-agentcore-control')?.get('DeleteAgentRuntimeResponse.status')?.includes('DELETING'));
  });

  it('the check fails on a missing required member, a value outside an enum, an unknown member, a wrong type, a wrong timestamp format and, in XML, an unwrapped list', async () => {
    const agentcore = enums.get('@aws-sdk/client-bedrock-agentcore-control') as EnumTable;
    const sagemaker = enums.get('@aws-sdk/client-sagemaker') as EnumTable;
    const getRuntime = operationShapes(new GetAgentRuntimeCommand({ agentRuntimeId: 'x' }).schema as unknown as unknown[]);
    const runtime = {
      agentRuntimeArn: 'a',
      agentRuntimeName: 'n',
      agentRuntimeId: 'i',
      agentRuntimeVersion: '1',
      createdAt: '2026-01-01T00:00:00Z',
      lastUpdatedAt: '2026-01-01T00:00:00Z',
      roleArn: 'r',
      status: 'READY',
      lifecycleConfiguration: { idleRuntimeSessionTimeout: 900, maxLifetime: 28800 },
    };
    assert.deepEqual(check(getRuntime.output, runtime, 'rest-json', agentcore), []);
    const { lifecycleConfiguration: _, ...withoutLifecycle } = runtime;
    assert.deepEqual(check(getRuntime.output, withoutLifecycle, 'rest-json', agentcore), [
      '$: missing required member lifecycleConfiguration of GetAgentRuntimeResponse',
    ]);
    const wrong = check(getRuntime.output, { ...runtime, status: 'RUNNING', extra: 1 }, 'rest-json', agentcore);
    assert.equal(wrong.length, 2);
    assert.match(wrong[0], /^\$\.status: 'RUNNING' is not one of .*READY/);
    assert.equal(wrong[1], '$: member extra is not in GetAgentRuntimeResponse');
    const describe = operationShapes(new DescribeJobCommand({ JobName: 'x', JobCategory: 'AgentRFT' }).schema as unknown as unknown[]);
    let job: Record<string, unknown> = {};
    await withEmulator({}, async (_emulator, aws) => {
      const calls: Exchange[] = [];
      recordCalls(aws.sagemaker(), '@aws-sdk/client-sagemaker', calls, streamsOutput);
      await aws.sagemaker().send(new DescribeJobCommand({ JobName: SEEDED.completedJob, JobCategory: 'AgentRFT' }));
      job = JSON.parse(calls[0].body as string) as Record<string, unknown>;
    });
    assert.deepEqual(check(describe.output, job, 'json', sagemaker), []);
    assert.deepEqual(check(describe.output, { ...job, CreationTime: '2026-01-01T00:00:00Z' }, 'json', sagemaker), [
      '$.CreationTime: a epoch-seconds timestamp expected, got "2026-01-01T00:00:00Z"',
    ]);
    assert.deepEqual(check(describe.output, { ...job, SecondaryStatusTransitions: {} }, 'json', sagemaker), [
      '$.SecondaryStatusTransitions: a list expected, got object',
    ]);
    const s3 = enums.get('@aws-sdk/client-s3') as EnumTable;
    const list = operationShapes(new ListObjectsV2Command({ Bucket: 'b' }).schema as unknown as unknown[]);
    const object = (lastModified: string, storageClass: string) =>
      `<Contents><Key>k</Key><LastModified>${lastModified}</LastModified><StorageClass>${storageClass}</StorageClass></Contents>`;
    const listing = (inner: string) =>
      parseXml(`<?xml version="1.0"?>\n<ListBucketResult xmlns="x"><Name>b</Name>${inner}</ListBucketResult>`);
    const good = `<IsTruncated>false</IsTruncated>${object('2026-01-01T00:00:00.000Z', 'STANDARD')}<CommonPrefixes><Prefix>p/</Prefix></CommonPrefixes>`;
    assert.deepEqual(checkXml(list.output, listing(good), 'rest-xml', 'ListObjectsV2', s3), []);
    assert.deepEqual(
      checkXml(
        list.output,
        listing(`<IsTruncated>no</IsTruncated>${object('yesterday', 'COLD')}<Extra/>`),
        'rest-xml',
        'ListObjectsV2',
        s3,
      ),
      [
        '$.IsTruncated: a boolean expected, got "no"',
        '$.Contents[0].LastModified: a date-time timestamp expected, got "yesterday"',
        `$.Contents[0].StorageClass: 'COLD' is not one of ${s3.get('Object.StorageClass')?.join(', ')}`,
        '$: element Extra is not in ListObjectsV2Output',
      ],
    );
    const iam = enums.get('@aws-sdk/client-iam') as EnumTable;
    const roles = operationShapes(new ListRolesCommand({}).schema as unknown as unknown[]);
    const role = '<Path>/</Path><RoleName>r</RoleName><Arn>a</Arn><CreateDate>2026-01-01T00:00:00.000Z</CreateDate>';
    const answer = (result: string) =>
      parseXml(`<ListRolesResponse><ListRolesResult>${result}</ListRolesResult><ResponseMetadata/></ListRolesResponse>`);
    assert.deepEqual(
      checkXml(roles.output, answer(`<Roles><member>${role}<RoleId>i</RoleId></member></Roles>`), 'query', 'ListRoles', iam),
      [],
    );
    assert.deepEqual(checkXml(roles.output, answer(`<Roles><Role>${role}</Role></Roles>`), 'query', 'ListRoles', iam), [
      '$.Roles: element Role in a list of member',
    ]);
    assert.deepEqual(checkXml(roles.output, answer(`<Roles><member>${role}</member></Roles>`), 'query', 'ListRoles', iam), [
      '$.Roles[0]: missing required member RoleId of Role',
    ]);
    assert.deepEqual(check(describe.input, { JobName: 7 }, 'sdk', sagemaker), [
      '$.JobName: a string expected, got 7',
      '$: missing required member JobCategory of DescribeJobRequest',
    ]);
  });
});
