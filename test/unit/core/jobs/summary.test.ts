import { strict as assert } from 'node:assert';
import { DEFAULT_PRICING } from '../../../../src/core/jobs/pricing';
import type { JobDetails } from '../../../../src/core/jobs/job';
import { jobDescription, jobFacts } from '../../../../src/core/jobs/summary';
import { JOB_LABEL_CHARS, jobLabel } from '../../../../src/core/jobs/label';
import { escapeMarkdown, hyperparametersThatDiffer, jobTooltip } from '../../../../src/core/jobs/tooltip';

const now = new Date('2026-11-29T12:00:00Z');

function job(overrides: Partial<JobDetails> = {}): JobDetails {
  return {
    name: 'wordle-grpo-100',
    arn: 'arn:aws:sagemaker:us-east-1:111122223333:job/AgentRFT/wordle-grpo-100',
    category: 'AgentRFT',
    region: 'us-east-1',
    status: 'InProgress',
    secondaryStatus: 'Training',
    created: new Date('2026-11-29T09:00:00Z'),
    roleArn: 'arn:aws:iam::111122223333:role/mtrl-job',
    transitions: [
      { Status: 'Starting', StartTime: new Date('2026-11-29T09:00:00Z'), EndTime: new Date('2026-11-29T09:04:00Z') },
      { Status: 'Training', StartTime: new Date('2026-11-29T09:04:00Z') },
    ],
    document: {
      AgentConfig: {
        BedrockAgentCoreConfig: {
          AgentRuntimeArn: 'arn:aws:bedrock-agentcore:us-east-1:111122223333:runtime/wordle_agent-AbCdEf1234',
          Qualifier: 'DEFAULT',
        },
      },
      InputDataConfig: [{ ChannelName: 'train', DataSource: { S3DataSource: { S3Uri: 's3://bucket/wordle/train.jsonl' } } }],
      TrainingConfig: {
        BaseModelArn: 'arn:aws:sagemaker:us-east-1:aws:hub-content/SageMakerPublicHub/Model/openai-reasoning-gpt-oss-20b',
        MlflowConfig: { MlflowExperimentName: 'wordle' },
        HyperParameters: { sampling_max_tokens: '8192', max_epochs: '20', max_steps: '100' },
      },
      ServiceOutput: {
        ProgressInfo: { MaxSteps: 100, CurrentStep: 42 },
        RolloutInfo: { Total: 102_400, Completed: 43_008 },
        BillableTokenUsage: { PrefillTokenCount: 20_000_000, SampleTokenCount: 6_000_000, TrainTokenCount: 25_000_000 },
        MlflowDetails: { ExperimentName: 'wordle', RunName: 'run-42', RunId: 'abc123' },
      },
    },
    ...overrides,
  };
}

describe('jobs description and tooltip', () => {
  it('describes a running job by its facts, most important first: step, cost, ETA, age', () => {
    // 20M×0.12 + 6M×0.30 + 25M×0.36 = 2.40 + 1.80 + 9.00
    assert.equal(jobDescription(job(), DEFAULT_PRICING, now), '42/100 · $13.20 · ETA 4h 03m · 3h ago');
  });

  it('falls back to the secondary status before describe, and to age without a price', () => {
    const { transitions: _t, document: _d, ...summary } = job();
    assert.equal(jobDescription(summary, DEFAULT_PRICING, now), 'Training · 3h ago');
    assert.equal(jobDescription(job(), {}, now), '42/100 · ETA 4h 03m · 3h ago');
  });

  it('describes a failed job by its diagnosis, aged from its end', () => {
    const failed = job({
      status: 'Failed',
      secondaryStatus: 'Failed',
      failureReason: 'Could not assume role arn:aws:iam::1:role/x',
      ended: new Date('2026-11-29T11:00:00Z'),
    });
    assert.equal(jobDescription(failed, DEFAULT_PRICING, now), 'Job role not trusted · $13.20 · 1h ago');
    const odd = job({ status: 'Failed', failureReason: 'Cosmic rays', document: undefined });
    assert.equal(jobDescription(odd, DEFAULT_PRICING, now), 'Failed · 3h ago');
  });

  it('keeps the row short: a long name cut between whole words, progress and cost before the ETA and the age', () => {
    const long = job({ name: 'wordle-gptoss20b-grpo-lr-sweep-0003' });
    assert.deepEqual(
      jobFacts(long, DEFAULT_PRICING, now).map((f) => f.spoken ?? f.text),
      ['step 42/100', '$13.20', 'ETA 4h 03m', '3h ago'],
    );
    const seeded = ['wordle-gptoss20b-grpo-lr-sweep', 'wordle-gptoss20b-grpo-wrong-role', 'wordle-gptoss20b-grpo-100steps'];
    assert.deepEqual(
      seeded.map((name) => jobLabel(name, seeded)),
      ['…lr-sweep', '…wrong-role', '…100steps'],
    );
    const evaluations = ['wordle-eval-trained-gptoss20b', 'wordle-eval-base-gptoss20b'];
    assert.deepEqual(
      evaluations.map((name) => jobLabel(name, evaluations)),
      ['…trained…', '…base-gptoss20b'],
    );
    const withOthers = ['wordle-similar-mx4mdqo3', 'host-launch-x4md6ts', ...seeded];
    assert.deepEqual(
      withOthers.map((name) => jobLabel(name, withOthers)),
      ['…similar…', 'host-launch…', '…lr-sweep', '…wrong-role', '…100steps'],
      'an unrelated job beside them does not lengthen the labels of alike ones',
    );
    assert.equal(jobLabel(long.name, [long.name]), 'wordle…0003', 'alone in its root: cut between words');
    assert.equal(jobLabel('grpo-1', ['grpo-1', 'grpo-12']), 'grpo-1', 'a shared prefix is cut at a word boundary only');
    assert.ok(seeded.every((name) => jobLabel(name, seeded).length <= JOB_LABEL_CHARS));
    const sdk = ['openai-reasoning-gpt-oss-20b-mtrl-20261002040558', 'openai-reasoning-gpt-oss-20b-mtrl-20261002040240'];
    assert.deepEqual(
      sdk.map((name) => jobLabel(name, sdk)),
      ['mtrl 2026-10-02 04:05', 'mtrl 2026-10-02 04:02'],
      'an SDK timestamp is shown as a date',
    );
    assert.equal(jobLabel(sdk[0], sdk, { runName: 'support-lr-2e-5' }), 'support-lr-2e-5', 'the MLflow run name wins');
    assert.equal(jobLabel('pipelines-8hvze02od4o0-EvaluateBaseModel-prdIRv4hLK', [], { pipelineRole: 'base' }), 'base');
    assert.match(
      jobTooltip(long, DEFAULT_PRICING, now),
      /^\*\*wordle\\-gptoss20b\\-grpo\\-lr\\-sweep\\-0003\*\*/,
      'the whole name is in the tooltip',
    );
  });

  it('shows bidi controls from the service as markers in the tooltip, never raw', () => {
    const failed = job({ status: 'Failed', failureReason: 'Role arn:aws:iam::1:role/\u202Eelor-bad\u202C is invalid', name: 'job\u2067x' });
    const md = jobTooltip(failed, DEFAULT_PRICING, now);
    assert.match(md, /role\/⟨U\+202E⟩elor-bad⟨U\+202C⟩ is invalid/);
    assert.match(md, /job⟨U\+2067⟩x/);
    assert.doesNotMatch(md, /[\u202A-\u202E\u2066-\u2069]/);
  });

  it('puts identity, configuration, progress, tokens, MLflow and the timeline in the tooltip', () => {
    const md = jobTooltip(job(), DEFAULT_PRICING, now);
    assert.match(md, /\*\*wordle\\-grpo\\-100\*\* · Training · InProgress \(Training\)/);
    assert.match(md, /\| Job ARN \| `arn:aws:sagemaker:us-east-1:111122223333:job\/AgentRFT\/wordle-grpo-100` \|/);
    assert.match(md, /\| Base model \| `openai-reasoning-gpt-oss-20b` \|/);
    assert.match(md, /\| Runtime \| `arn:aws:bedrock-agentcore:.*wordle_agent-AbCdEf1234` \(DEFAULT\) \|/);
    assert.match(md, /\| Dataset \(train\) \| `s3:\/\/bucket\/wordle\/train\.jsonl` \|/);
    // max_steps 100 is gpt-oss-20b's own default, so only the two changed values are listed.
    assert.match(md, /\| Hyperparameters \(non-default\) \| `sampling_max_tokens=8192`, `max_epochs=20` \|/);
    assert.match(md, /\| Progress \| step 42\/100 \|/);
    assert.match(md, /\| Rollouts \| 43,008 \/ 102,400 \|/);
    assert.match(md, /\| Prefill \| 20\.0M \| \$0\.12 \| \$2\.40 \|/);
    assert.match(md, /\| Train \| 25\.0M \| \$0\.36 \| \$9\.00 \|/);
    assert.match(md, /\| \*\*Total\*\* \| \| \| \*\*\$13\.20\*\* \|/);
    assert.match(md, /\| MLflow \| experiment `wordle`, run `run-42`, id `abc123` \|/);
    assert.match(md, /\| Starting \| 2026-11-29 09:00:00 \| 4m 00s \|/);
    assert.match(md, /\| Training \| 2026-11-29 09:04:00 \| 2h 56m so far \|/);
  });

  it('explains a known failure and quotes an unknown one verbatim', () => {
    const known = jobTooltip(job({ status: 'Failed', failureReason: 'Could not assume role' }), DEFAULT_PRICING, now);
    assert.match(known, /\*\*Job role not trusted\*\*: .*job\\\.sagemaker\\\.amazonaws\\\.com/);
    assert.match(known, /Reason: `Could not assume role`/);
    const unknown = jobTooltip(job({ status: 'Failed', failureReason: 'Cosmic `rays`' }), DEFAULT_PRICING, now);
    assert.match(unknown, /\*\*Failed\*\*/);
    assert.match(unknown, /Reason: `Cosmic 'rays'`/);
  });

  it('shows a finished evaluation by its pass@1 and lists its metrics', () => {
    const evaluation = job({
      category: 'AgentRFTEvaluation',
      status: 'Completed',
      document: {
        EvaluationConfig: { BaseModelArn: 'openai-reasoning-gpt-oss-20b' },
        ServiceOutput: {
          RolloutInfo: { Total: 128, Completed: 128 },
          EvaluationMetrics: { 'eval/reward/mean': 0.61234, 'eval/reward/pass_at_1': 0.84375, 'eval/num_trajectories': 128, note: 'text' },
        },
      },
    });
    assert.equal(jobDescription(evaluation, DEFAULT_PRICING, now), 'pass@1 0.84 · 3h ago');
    assert.match(
      jobTooltip(evaluation, DEFAULT_PRICING, now),
      /\| Evaluation \| `eval\/reward\/mean` 0\.6123, `eval\/reward\/pass_at_1` 0\.8438, `eval\/num_trajectories` 128 \|/,
    );
    const odd = job({
      category: 'AgentRFTEvaluation',
      document: {
        ServiceOutput: { RolloutInfo: { Completed: 3 }, EvaluationMetrics: ['not', 'a', 'map'] as unknown as Record<string, unknown> },
      },
    });
    assert.equal(jobDescription(odd, DEFAULT_PRICING, now), 'rollouts 3 · 3h ago');
  });

  it('says when a model has no price', () => {
    const md = jobTooltip(job(), {}, now);
    assert.match(md, /No price for `openai-reasoning-gpt-oss-20b` in `mtrl.pricing`/);
  });

  it('compares hyperparameters numerically, per model and per category', () => {
    const withHp = (category: JobDetails['category'], HyperParameters: Record<string, string>, BaseModelArn?: string) =>
      job({
        category,
        document:
          category === 'AgentRFT'
            ? { TrainingConfig: { BaseModelArn, HyperParameters } }
            : { EvaluationConfig: { BaseModelArn, HyperParameters } },
      });
    const gpt = 'arn:aws:sagemaker:us-east-1:aws:hub-content/SageMakerPublicHub/Model/openai-reasoning-gpt-oss-20b';
    assert.deepEqual(hyperparametersThatDiffer(withHp('AgentRFT', { learning_rate: '0.00001', lora_rank: '32', custom: 'x' }, gpt)), [
      ['custom', 'x'],
    ]);
    assert.deepEqual(hyperparametersThatDiffer(withHp('AgentRFT', { learning_rate: '1e-5' })), [['learning_rate', '1e-5']]);
    assert.deepEqual(hyperparametersThatDiffer(withHp('AgentRFT', { pass_k_values: '[1, 2, 4, 8, 16, 32]' })), []);
    // The evaluation guide's defaults: temperature 0, pass_k_values [1,2,4,8,16,32].
    assert.deepEqual(hyperparametersThatDiffer(withHp('AgentRFTEvaluation', { pass_k_values: '[1]', temperature: '0' })), [
      ['pass_k_values', '[1]'],
    ]);
  });

  it('escapes Markdown from the service', () => {
    assert.equal(escapeMarkdown('[x](http://e)'), '\\[x\\]\\(http://e\\)');
  });
});
