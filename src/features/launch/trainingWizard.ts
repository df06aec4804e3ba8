import * as vscode from 'vscode';
import { buildTrainingDocument } from '../../core/jobs/document';
import { TRAINING_PRESETS } from '../../core/jobs/presets';
import type { LaunchResult } from '../../services/launch/launch';
import type { Services } from '../services';
import type { TrainingAnswers } from '../../services/launch/answers';
import type { Launcher } from './launcher';
import { datasetAnswer, runLaunchWizard } from './wizard';
import { BACK, CANCEL, pickStep, type Step } from './wizardInput';

/** MTRL: Launch Training Job — every answer of the last run is the default of this one. */
export async function launchTrainingWizard(services: Services, launcher: Launcher): Promise<LaunchResult | undefined> {
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
  const result = await runLaunchWizard(services, launcher, {
    title: 'MTRL: Launch Training Job',
    category: 'AgentRFT',
    store: services.stores.trainingAnswers,
    toDocument: (a, shared) => buildTrainingDocument({ ...shared, trainUri: a.trainUri!, validationUri: a.validationUri || undefined }),
    model,
    datasets: [
      datasetAnswer<TrainingAnswers>(services, 'trainUri', 'Training dataset (S3)', false),
      datasetAnswer<TrainingAnswers>(services, 'validationUri', 'Validation dataset (S3), disjoint from training', true),
    ],
    firstDataset: (a) => a.trainUri,
    experiment: () => 'mtrl-training',
    presets: TRAINING_PRESETS,
    modelDefaults: true,
    jobNameStem: () => 'mtrl-train',
  });
  if (result?.launched) void vscode.window.setStatusBarMessage(`$(rocket) ${result.jobName} launched`, 5000);
  return result;
}
