import * as vscode from 'vscode';
import { buildEvaluationDocument, defaultEvaluationExperiment } from '../../core/jobs/document';
import { EVALUATION_PRESETS } from '../../core/jobs/presets';
import { parseBaseModelArn } from '../../core/jobs/models';
import { describeJobIn, jobsIn } from '../../services/jobs/lookup';
import type { LaunchResult } from '../../services/launch/launch';
import type { Services } from '../services';
import type { EvaluationAnswers } from '../../services/launch/answers';
import type { Launcher } from './launcher';
import { datasetAnswer, runLaunchWizard } from './wizard';
import { BACK, CANCEL, pickStep, type Step } from './wizardInput';

type ModelItem = vscode.QuickPickItem & { modelId?: string; trainingJob?: string };

/** MTRL: Launch Evaluation Job — base model or a completed training job's adapter, with the flat names the service accepts. */
export async function launchEvaluationWizard(services: Services, launcher: Launcher): Promise<LaunchResult | undefined> {
  const model: Step<EvaluationAnswers> = async (a, p) => {
    const r = await pickStep<ModelItem>({
      ...p,
      placeholder: 'Evaluate a base model, or the adapter of a completed training job',
      items: async () => {
        const base = (await launcher.models.offered(a.region)).map((m) => ({
          label: `$(symbol-class) ${m.name}`,
          description: `base model · ${m.id}`,
          modelId: m.id,
        }));
        const trained: ModelItem[] = [];
        for await (const j of jobsIn(services.aws, a.region, {
          JobCategory: 'AgentRFT',
          StatusEquals: 'Completed',
          SortBy: 'CreationTime',
          SortOrder: 'Descending',
        })) {
          trained.push({
            label: `$(package) ${j.JobName}`,
            description: `trained adapter · completed ${j.EndTime?.toISOString().slice(0, 10) ?? ''}`,
            trainingJob: j.JobName,
          });
        }
        return [...base, { label: 'Trained adapters', kind: vscode.QuickPickItemKind.Separator }, ...trained];
      },
      active: (i) => (a.adapterJob ? i.trainingJob === a.adapterJob : i.modelId === a.modelId),
    });
    if (r === BACK || r === CANCEL) return r;
    if (r.modelId) {
      Object.assign(a, { modelId: r.modelId, adapterArn: undefined, adapterJob: undefined });
      return 'next';
    }
    try {
      const job = await describeJobIn(services.aws, { jobName: r.trainingJob!, category: 'AgentRFT', region: a.region });
      const adapter = job.config?.ServiceOutput?.OutputModelPackageArn;
      const base = job.config?.TrainingConfig?.BaseModelArn;
      if (!adapter || !base) throw new Error(`${r.trainingJob} has no OutputModelPackageArn in its ServiceOutput.`);
      Object.assign(a, {
        modelId: parseBaseModelArn(base)?.modelId,
        adapterArn: adapter,
        adapterJob: r.trainingJob,
        runtimeArn: a.runtimeArn ?? job.config?.AgentConfig?.BedrockAgentCoreConfig?.AgentRuntimeArn,
      });
      return 'next';
    } catch (error) {
      void vscode.window.showErrorMessage(services.explain(error, `Reading training job ${r.trainingJob}`));
      // Stay on this step so another model can be picked.
      return model(a, p);
    }
  };
  return runLaunchWizard(services, launcher, {
    title: 'MTRL: Launch Evaluation Job',
    category: 'AgentRFTEvaluation',
    store: services.stores.evaluationAnswers,
    toDocument: (a, shared) =>
      buildEvaluationDocument({ ...shared, evaluationUri: a.evaluationUri!, adapterModelPackageArn: a.adapterArn }),
    model,
    datasets: [datasetAnswer<EvaluationAnswers>(services, 'evaluationUri', 'Evaluation dataset (S3): held-out tasks', false)],
    firstDataset: (a) => a.evaluationUri,
    // The SDK evaluator's default experiment, so the SDK's and the wizard's evaluations of a model land together.
    experiment: (a) => defaultEvaluationExperiment(a.modelId),
    presets: EVALUATION_PRESETS,
    modelDefaults: false,
    jobNameStem: (a) => (a.adapterJob ? 'mtrl-eval-adapter' : 'mtrl-eval-base'),
  });
}
