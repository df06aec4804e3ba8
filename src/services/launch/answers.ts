/** What the launch wizards ask, kept per workspace as the next run's defaults (read by the stores, written by the wizards). */

/** Answers both wizards share; kept per workspace as the next run's defaults. */
export interface CommonAnswers {
  region: string;
  runtimeArn?: string;
  roleArn?: string;
  outputPath?: string;
  mlflowArn?: string;
  experimentName?: string;
  jobName?: string;
}

export interface TrainingAnswers extends CommonAnswers {
  modelId?: string;
  trainUri?: string;
  validationUri?: string;
  hyperparameters: Record<string, string>;
}

export interface EvaluationAnswers extends CommonAnswers {
  modelId?: string;
  /** The trained adapter's model package; absent to evaluate the base model. */
  adapterArn?: string;
  adapterJob?: string;
  evaluationUri?: string;
  hyperparameters: Record<string, string>;
}
