import { ACCOUNT } from './world';

// The seeded account's names and the documents of its jobs: what tests and seedWorld.ts (which builds the account) share.

export const SEEDED = {
  runtime: `arn:aws:bedrock-agentcore:us-east-1:${ACCOUNT}:runtime/wordle_agent-AbCdEf1234`,
  noServerRuntime: `arn:aws:bedrock-agentcore:us-east-1:${ACCOUNT}:runtime/wordle_agent_no_server-NoServer12`,
  errorStatusRuntime: `arn:aws:bedrock-agentcore:us-east-1:${ACCOUNT}:runtime/wordle_agent_error_status-ErrStat123`,
  lowEffortRuntime: `arn:aws:bedrock-agentcore:us-east-1:${ACCOUNT}:runtime/wordle_agent_low-LowEffort1`,
  silentRuntime: `arn:aws:bedrock-agentcore:us-east-1:${ACCOUNT}:runtime/wordle_agent_silent-Silent1234`,
  refundRuntime: `arn:aws:bedrock-agentcore:us-east-1:${ACCOUNT}:runtime/refund_agent-Refund1234`,
  supportRuntime: `arn:aws:bedrock-agentcore:us-east-1:${ACCOUNT}:runtime/support_agent-Support123`,
  keyErrorRuntime: `arn:aws:bedrock-agentcore:us-east-1:${ACCOUNT}:runtime/support_agent_key_error-KeyError12`,
  jobRole: `arn:aws:iam::${ACCOUNT}:role/MtrlJobRole`,
  /** Where job notifications can go: an SNS topic and an event bus of the home region. */
  topic: `arn:aws:sns:us-east-1:${ACCOUNT}:mtrl-job-alerts`,
  eventBus: `arn:aws:events:us-east-1:${ACCOUNT}:event-bus/mtrl-alerts`,
  wrongTrustRole: `arn:aws:iam::${ACCOUNT}:role/MtrlWrongTrustRole`,
  mlflowApp: `arn:aws:sagemaker:us-east-1:${ACCOUNT}:mlflow-app/app-wordle01`,
  /** An app of MLflow 3.4.0, below the 3.10 MTRL needs: the wizard marks it and the pre-flight refuses it. */
  oldMlflowApp: `arn:aws:sagemaker:us-east-1:${ACCOUNT}:mlflow-app/app-legacy01`,
  train: 's3://mtrl-demo/wordle/train.jsonl',
  validation: 's3://mtrl-demo/wordle/val.jsonl',
  refundTrain: 's3://mtrl-demo/refund/train.jsonl',
  refundEvaluation: 's3://mtrl-demo/refund/eval.jsonl',
  /** Only routine tickets, every one solved by every rollout: a dataset without learning signal. */
  refundRoutine: 's3://mtrl-demo/refund/routine.jsonl',
  completedJob: 'wordle-gptoss20b-grpo-100steps',
  inProgressJob: 'wordle-gptoss20b-grpo-lr-sweep',
  failedJob: 'wordle-gptoss20b-grpo-wrong-role',
  baseEvaluation: 'wordle-eval-base-gptoss20b',
  trainedEvaluation: 'wordle-eval-trained-gptoss20b',
  refundJob: 'refund-desk-gptoss20b-grpo-10steps',
  refundBaseEvaluation: 'refund-desk-gptoss20b-base-evaluation',
  // The SDK's evaluation pipeline names its jobs `pipelines-<execution>-<step, cut to 20>-<suffix>` (as a real run shows).
  pipelineBaseEvaluation: 'pipelines-q8hvze02od4o-EvaluateBaseModel-prdIRv4hLK',
  pipelineFineTunedEvaluation: 'pipelines-q8hvze02od4o-EvaluateFineTunedMod-mwwrZNnd6y',
  // The real run's status messages, replayed: waiting for capacity, a restart, then more rollouts than planned.
  restartedJob: 'openai-reasoning-gpt-oss-20b-mtrl-20261002040558',
};

export const GPT_OSS = 'arn:aws:sagemaker:us-east-1:aws:hub-content/SageMakerPublicHub/Model/openai-reasoning-gpt-oss-20b';

/** The agent and data of a seeded job: the Wordle ones unless named (the refund desk has no validation channel, as the real support run). */
interface Agent {
  runtime: string;
  train: string;
  validation?: string;
  evaluation: string;
  evalExperiment: string;
}
const WORDLE: Agent = {
  runtime: SEEDED.runtime,
  train: SEEDED.train,
  validation: SEEDED.validation,
  evaluation: SEEDED.validation,
  evalExperiment: 'wordle-eval',
};
export const REFUND: Agent = {
  runtime: SEEDED.refundRuntime,
  train: SEEDED.refundTrain,
  evaluation: SEEDED.refundEvaluation,
  evalExperiment: 'refund-desk-eval',
};
const channel = (name: string, uri: string) => ({
  ChannelName: name,
  DataSource: { S3DataSource: { S3DataType: 'S3Prefix', S3Uri: uri } },
});

export function trainingDocument(experiment: string, hyperParameters: Record<string, string>, agent = WORDLE): Record<string, unknown> {
  return {
    AgentConfig: { BedrockAgentCoreConfig: { AgentRuntimeArn: agent.runtime, Qualifier: 'DEFAULT' } },
    InputDataConfig: [channel('train', agent.train), ...(agent.validation ? [channel('validation', agent.validation)] : [])],
    OutputDataConfig: { S3OutputPath: 's3://mtrl-demo/output' },
    TrainingConfig: {
      BaseModelArn: GPT_OSS,
      MlflowConfig: { MlflowResourceArn: SEEDED.mlflowApp, MlflowExperimentName: experiment },
      AcceptEula: true,
      HyperParameters: hyperParameters,
    },
  };
}

export function evaluationDocument(runName: string, adapter?: string, agent = WORDLE, groupSize = '1'): Record<string, unknown> {
  return {
    AgentConfig: { BedrockAgentCoreConfig: { AgentRuntimeArn: agent.runtime, Qualifier: 'DEFAULT' } },
    InputDataConfig: [channel('evaluation', agent.evaluation)],
    OutputDataConfig: {
      S3OutputPath: 's3://mtrl-demo/eval-output',
      MlflowConfig: { MlflowResourceArn: SEEDED.mlflowApp, MlflowExperimentName: agent.evalExperiment, MlflowRunName: runName },
    },
    EvaluationConfig: {
      BaseModelArn: GPT_OSS,
      AcceptEula: true,
      HyperParameters: {
        eval_group_size: groupSize,
        temperature: '1.0',
        sampling_top_p: '1.0',
        sampling_max_tokens: '8192',
        pass_k_values: '[1]',
        success_threshold: '1',
        rollout_timeout: '600',
        rollout_max_concurrency: '32',
        rollout_max_retries: '3',
      },
    },
    ...(adapter ? { ModelPackageConfig: { InputModelPackageArn: adapter } } : {}),
    StoppingCondition: { MaxRuntimeInSeconds: 14400 },
  };
}
