import type { Sweep } from '../../../../src/core/evaluation/sweep';

// Shared by the sweep tests; a fixture module, so importing it registers no tests twice.
export const SWEEP: Sweep = {
  name: 'wordle-eval',
  region: 'us-east-1',
  roleArn: 'arn:aws:iam::111122223333:role/mtrl-job',
  baseModelArn: 'arn:aws:sagemaker:us-east-1:aws:hub-content/SageMakerPublicHub/Model/openai-reasoning-gpt-oss-20b',
  evaluationUri: 's3://bucket/wordle/val.jsonl',
  outputPath: 's3://bucket/eval',
  models: [{ label: 'base' }, { label: 'adapter', trainingJob: 'wordle-grpo' }],
  runtimes: [
    { label: 'medium', runtimeArn: 'arn:aws:bedrock-agentcore:us-east-1:111122223333:runtime/wordle_agent-AbCdEf1234' },
    { label: 'low', runtimeArn: 'arn:aws:bedrock-agentcore:us-east-1:111122223333:runtime/wordle_low-AbCdEf1234' },
  ],
  grid: { temperature: ['1.0', '0.6'] },
};
