import { strict as assert } from 'node:assert';
import { createJob } from '../../../src/aws/sagemaker';
import { main } from '../../../src/cli';
import { ManualClock } from '../../../src/emulator/clock';
import { SEEDED } from '../../../src/emulator/seed';
import { withEmulator } from '../emulator/helpers';
import { ceiling } from '../../host/lib/ceiling';

async function mtrl(...args: string[]) {
  const out: string[] = [];
  const err: string[] = [];
  const code = await main(args, { out: (t) => out.push(t), err: (t) => err.push(t), stdin: () => [] });
  return { code, out: out.join('\n'), err: err.join('\n') };
}

const GPT_OSS = 'arn:aws:sagemaker:us-east-1:aws:hub-content/SageMakerPublicHub/Model/openai-reasoning-gpt-oss-20b/1.0.0';

/** An evaluation of the refund desk on a dataset, G rollouts per ticket, as the signal check's cloud route launches it. */
function evaluation(dataset: string, groupSize: number): Record<string, unknown> {
  return {
    AgentConfig: { BedrockAgentCoreConfig: { AgentRuntimeArn: SEEDED.refundRuntime, Qualifier: 'DEFAULT' } },
    InputDataConfig: [{ ChannelName: 'evaluation', DataSource: { S3DataSource: { S3DataType: 'S3Prefix', S3Uri: dataset } } }],
    OutputDataConfig: {
      S3OutputPath: 's3://mtrl-demo/eval-output',
      MlflowConfig: { MlflowResourceArn: SEEDED.mlflowApp, MlflowExperimentName: 'signal-check', MlflowRunName: `signal-${groupSize}` },
    },
    EvaluationConfig: {
      BaseModelArn: GPT_OSS,
      AcceptEula: true,
      HyperParameters: { eval_group_size: String(groupSize), temperature: '1.0', success_threshold: '1' },
    },
  };
}

interface Row {
  groupKey: string;
  reward?: number;
}

describe('mtrl signal --job: the cloud route, an evaluation job read back', function () {
  this.timeout(ceiling(120_000));

  it('routine tickets every rollout solves: ~100 % zero-advantage; the mixed set: the share a hand count gives', async () => {
    const clock = new ManualClock();
    await withEmulator({ clock, history: false }, async (emulator, aws) => {
      // One evaluation runs at a time in an account, as in the service: each is started once the one before has finished.
      for (const [name, dataset] of [
        ['signal-routine', SEEDED.refundRoutine],
        ['signal-mixed', SEEDED.refundEvaluation],
      ]) {
        await createJob(aws.sagemaker(), {
          JobName: name,
          JobCategory: 'AgentRFTEvaluation',
          RoleArn: SEEDED.jobRole,
          JobConfigSchemaVersion: '1.0.0',
          JobConfigDocument: JSON.stringify(evaluation(dataset, 4)),
        });
        clock.advance(24 * 3_600_000);
      }
      const endpoint = ['--endpoint', emulator.url, '--evaluation'];

      const routine = await mtrl('signal', '--job', 'signal-routine', ...endpoint, '--json');
      const easy = JSON.parse(routine.out);
      assert.equal(routine.code, 1, 'half or more of the groups teach nothing');
      assert.equal(easy.groupSize, 4);
      assert.ok(easy.groups >= 30, `${easy.groups} groups`);
      assert.ok(easy.zeroAdvantage.share >= 0.95, `zero-advantage share ${easy.zeroAdvantage.share}`);
      assert.match(easy.recommendations[0], /of tasks are solved by every rollout: they teach nothing/);

      // By hand, over the same rollouts: a group has zero advantage when all its rewards are equal.
      const dump = await mtrl('rollouts', '--job', 'signal-mixed', ...endpoint, '--transcripts');
      const rows = dump.out.split('\n').map((l) => JSON.parse(l) as Row);
      const groups = new Map<string, number[]>();
      for (const r of rows) groups.set(r.groupKey, [...(groups.get(r.groupKey) ?? []), r.reward ?? 0]);
      const counted = [...groups.values()].filter((g) => g.length >= 2);
      const flat = counted.filter((g) => g.every((x) => Math.abs(x - g[0]) <= 1e-9)).length;
      const mixed = JSON.parse((await mtrl('signal', '--job', 'signal-mixed', ...endpoint, '--json')).out);
      assert.equal(mixed.groups, counted.length);
      assert.equal(mixed.zeroAdvantage.groups, flat);
      assert.ok(flat > 0 && flat < counted.length, `a mixed set: ${flat} of ${counted.length} flat`);
    });
  });
});
