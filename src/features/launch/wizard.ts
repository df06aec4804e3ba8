import type { HyperparameterPreset } from '../../core/jobs/presets';
import type { JobConfigDocument } from '../../core/jobs/document';
import { newJobFile } from '../../core/jobs/jobfile';
import { baseModelArn } from '../../core/jobs/models';
import type { JobCategory } from '../../core/jobs/status';
import type { LaunchResult } from '../../services/launch/launch';
import type { Services } from '../services';
import type { StoredValue } from '../stores';
import type { CommonAnswers } from '../../services/launch/answers';
import { datasetStep } from './datasetStep';
import { hyperparameterStep } from './hyperparameterStep';
import type { Launcher } from './launcher';
import { BACK, CANCEL, runWizard, type Step } from './wizardInput';
import { jobNameStep, mlflowStep, outputStep, regionStep, roleStep, runtimeStep, suggestJobName } from './wizardSteps';

type Answers = CommonAnswers & { modelId?: string; hyperparameters: Record<string, string> };

/** The document fields both wizards ask for, as the document builders take them. */
interface SharedDocumentFields {
  runtimeArn: string;
  outputPath: string;
  baseModelArn: string;
  mlflowArn?: string;
  experimentName?: string;
  hyperparameters: Record<string, string>;
}

/** What differs between the training and the evaluation wizard; every other step is the same. */
export interface LaunchWizard<A extends Answers> {
  title: string;
  category: JobCategory;
  store: StoredValue<A>;
  /** The job's document from the answers: the shared fields and the kind's own (datasets, adapter). */
  toDocument(answers: A, shared: SharedDocumentFields): JobConfigDocument;
  model: Step<A>;
  datasets: Step<A>[];
  /** The dataset whose bucket the output path defaults to. */
  firstDataset(answers: A): string | undefined;
  /** The MLflow experiment offered when none was chosen before. */
  experiment(answers: A): string;
  presets: readonly HyperparameterPreset[];
  /** Whether the model's defaults and ranges apply to the hyperparameters (training). */
  modelDefaults: boolean;
  jobNameStem(answers: A): string;
}

/** One dataset answer: recent uploads, Browse S3… or typed. */
export function datasetAnswer<A>(services: Services, key: keyof A & string, what: string, optional: boolean): Step<A> {
  return async (a, p) => {
    const r = await datasetStep(services, p, what, a[key] as string | undefined, optional);
    if (r === BACK || r === CANCEL) return r;
    (a as Record<string, unknown>)[key] = r;
    return 'next';
  };
}

/** The answers as the job file the launcher reviews: every step has run, so each answer the document needs is there. */
function jobFileOf<A extends Answers>(w: LaunchWizard<A>, a: A) {
  const shared: SharedDocumentFields = {
    runtimeArn: a.runtimeArn!,
    outputPath: a.outputPath!,
    baseModelArn: baseModelArn(a.region, a.modelId!),
    mlflowArn: a.mlflowArn,
    experimentName: a.experimentName,
    hyperparameters: a.hyperparameters,
  };
  return newJobFile({ name: a.jobName!, category: w.category, region: a.region, roleArn: a.roleArn! }, w.toDocument(a, shared));
}

/** Runs a launch wizard from the last run's answers; its last step remembers them, reviews and launches. */
export async function runLaunchWizard<A extends Answers>(services: Services, launcher: Launcher, w: LaunchWizard<A>) {
  const last = w.store.get();
  const answers = {
    ...last,
    region: last?.region ?? services.aws.current.region,
    hyperparameters: { ...last?.hyperparameters },
    jobName: undefined,
  } as A;
  let result: LaunchResult | undefined;
  const review: Step<A> = async (a, p) => {
    await w.store.set(a);
    const outcome = await launcher.launch(jobFileOf(w, a), { position: p });
    // A cancelled check, or Back on the review, returns to the previous step; closing the review ends the wizard.
    if (!outcome.review || outcome.reason === 'back') return BACK;
    if (outcome.reason === 'cancelled') return CANCEL;
    result = outcome;
    return 'next';
  };
  const steps: Step<A>[] = [
    regionStep,
    w.model,
    (a, p) => runtimeStep(services, a, p),
    (a, p) => roleStep(services, a, p),
    ...w.datasets,
    (a, p) => outputStep(a, p, w.firstDataset(a)),
    (a, p) => mlflowStep(services, a, p, w.experiment(a)),
    (a, p) => hyperparameterStep(w.category, a.hyperparameters, w.presets, p, w.modelDefaults ? a.modelId : undefined),
    (a, p) => jobNameStep(services, a, p, w.category, suggestJobName(w.jobNameStem(a))),
    review,
  ];
  await runWizard(w.title, answers, steps);
  return result;
}
