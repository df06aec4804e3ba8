import * as vscode from 'vscode';
import { buildTrainingDocument } from '../../core/jobs/document';
import { TRAINING_PRESETS } from '../../core/jobs/hyperparameters';
import type { JobFile } from '../../core/jobs/jobfile';
import { baseModelArn } from '../../core/jobs/models';
import type { Services } from '../services';
import { hyperparameterStep } from './hyperparameterStep';
import type { Launcher } from './launcher';
import type { LaunchResult } from './launchFlow';
import { reviewAndLaunchStep } from './reviewStep';
import { BACK, CANCEL, pickStep, runWizard, type Step } from './wizardInput';
import {
  datasetStep,
  jobNameStep,
  mlflowStep,
  outputStep,
  regionStep,
  roleStep,
  runtimeStep,
  suggestJobName,
  type CommonAnswers,
} from './wizardSteps';

export interface TrainingAnswers extends CommonAnswers {
  modelId?: string;
  trainUri?: string;
  validationUri?: string;
  hyperparameters: Record<string, string>;
}

function trainingJobFile(a: TrainingAnswers): JobFile {
  return {
    JobName: a.jobName!,
    JobCategory: 'AgentRFT',
    Region: a.region,
    RoleArn: a.roleArn!,
    JobConfigSchemaVersion: '1.0.0',
    JobConfigDocument: buildTrainingDocument({
      runtimeArn: a.runtimeArn!,
      trainUri: a.trainUri!,
      validationUri: a.validationUri || undefined,
      outputPath: a.outputPath!,
      baseModelArn: baseModelArn(a.region, a.modelId!),
      mlflowArn: a.mlflowArn,
      experimentName: a.experimentName,
      hyperparameters: a.hyperparameters,
    }),
  };
}

/** MTRL: Launch Training Job — every answer of the last run is the default of this one. */
export async function launchTrainingWizard(
  services: Services,
  launcher: Launcher,
  onLaunched: (job: JobFile) => void,
): Promise<LaunchResult | undefined> {
  const last = services.stores.trainingAnswers.get();
  const answers: TrainingAnswers = {
    ...last,
    region: last?.region ?? services.aws.current.region,
    hyperparameters: { ...last?.hyperparameters },
    jobName: undefined,
  };
  let result: LaunchResult | undefined;

  const model: Step<TrainingAnswers> = async (a, p) => {
    const r = await pickStep({
      ...p,
      placeholder: `Base model offered in ${a.region} (trained as a LoRA adapter)`,
      items: async () =>
        (await launcher.models.offered(a.region)).map((m) => ({
          label: m.name,
          description: m.id,
          detail: m.reasoning ? 'Reasoning model: sampling_max_tokens is set to 8192' : undefined,
          model: m,
        })),
      active: (i) => i.model.id === a.modelId,
    });
    if (r === BACK || r === CANCEL) return r;
    a.modelId = r.model.id;
    if (r.model.reasoning && a.hyperparameters.sampling_max_tokens === undefined) a.hyperparameters.sampling_max_tokens = '8192';
    return 'next';
  };
  const dataset =
    (key: 'trainUri' | 'validationUri', what: string, optional: boolean): Step<TrainingAnswers> =>
    async (a, p) => {
      const r = await datasetStep(services, p, what, a[key], optional);
      if (r === BACK || r === CANCEL) return r;
      a[key] = r;
      return 'next';
    };
  const review = reviewAndLaunchStep<TrainingAnswers>(
    services,
    launcher,
    services.stores.trainingAnswers,
    trainingJobFile,
    onLaunched,
    (r) => (result = r),
  );

  const steps: Step<TrainingAnswers>[] = [
    regionStep,
    model,
    (a, p) => runtimeStep(services, a, p),
    (a, p) => roleStep(services, a, p),
    dataset('trainUri', 'Training dataset (S3)', false),
    dataset('validationUri', 'Validation dataset (S3), disjoint from training', true),
    (a, p) => outputStep(a, p, a.trainUri),
    (a, p) => mlflowStep(services, a, p, 'wordle'),
    (a, p) => hyperparameterStep('AgentRFT', a.hyperparameters, TRAINING_PRESETS, p, a.modelId),
    (a, p) => jobNameStep(services, a, p, 'AgentRFT', suggestJobName('mtrl-train')),
    review,
  ];
  const finished = await runWizard('MTRL: Launch Training Job', answers, steps);
  if (finished && result?.launched) void vscode.window.setStatusBarMessage(`$(rocket) ${result.jobName} launched`, 5000);
  return result;
}
