import { defaultHyperparameters } from './hyperparameters';

/** How long a training job runs and how many rollouts it plays. */
interface TrainingArithmetic {
  trainRows: number;
  validationRows?: number;
  batchSize: number;
  groupSize: number;
  stepsPerEpoch: number;
  /** Rows that do not fill a last batch of an epoch. */
  leftoverRows: number;
  rolloutsPerStep: number;
  maxSteps: number;
  maxEpochs: number;
  totalSteps: number;
  /** The checkpoint's step a resumed job starts after (0: a fresh start); steps and rollouts count only what is left. */
  resumeFrom: number;
  stepsToRun: number;
  /** Which limit ends the job first ("both" when they coincide). */
  stopsBy: 'max_steps' | 'max_epochs' | 'both';
  trainingRollouts: number;
  /** Validation games: one per validation row every val_every steps. */
  validationRollouts: number;
  valEvery: number;
  totalRollouts: number;
}

interface EvaluationArithmetic {
  rows: number;
  groupSize: number;
  totalRollouts: number;
}

function integer(values: Record<string, string>, name: string, fallback: Record<string, string>): number {
  const n = Number(values[name] ?? fallback[name]);
  return Number.isFinite(n) ? Math.floor(n) : Number(fallback[name]);
}

export function trainingArithmetic(
  trainRows: number,
  hyperparameters: Record<string, string>,
  options: { validationRows?: number; modelId?: string; resumeFrom?: number } = {},
): TrainingArithmetic {
  const defaults = defaultHyperparameters('AgentRFT', options.modelId);
  const batchSize = Math.max(1, integer(hyperparameters, 'global_batch_size', defaults));
  const groupSize = integer(hyperparameters, 'group_size', defaults);
  const maxSteps = integer(hyperparameters, 'max_steps', defaults);
  const maxEpochs = integer(hyperparameters, 'max_epochs', defaults);
  const valEvery = integer(hyperparameters, 'val_every', defaults);
  const stepsPerEpoch = Math.floor(trainRows / batchSize);
  const epochSteps = maxEpochs * stepsPerEpoch;
  const totalSteps = Math.min(maxSteps, epochSteps);
  const stopsBy = maxSteps === epochSteps ? 'both' : maxSteps < epochSteps ? 'max_steps' : 'max_epochs';
  const rolloutsPerStep = batchSize * groupSize;
  const resumeFrom = Math.min(Math.max(0, Math.floor(options.resumeFrom ?? 0)), totalSteps);
  const stepsToRun = totalSteps - resumeFrom;
  const trainingRollouts = stepsToRun * rolloutsPerStep;
  const validationRows = options.validationRows;
  const validationRuns = valEvery > 0 ? Math.floor(totalSteps / valEvery) - Math.floor(resumeFrom / valEvery) : 0;
  const validationRollouts = validationRows ? validationRuns * validationRows : 0;
  return {
    trainRows,
    validationRows,
    batchSize,
    groupSize,
    stepsPerEpoch,
    leftoverRows: trainRows - stepsPerEpoch * batchSize,
    rolloutsPerStep,
    maxSteps,
    maxEpochs,
    totalSteps,
    resumeFrom,
    stepsToRun,
    stopsBy,
    trainingRollouts,
    validationRollouts,
    valEvery,
    totalRollouts: trainingRollouts + validationRollouts,
  };
}

export function evaluationArithmetic(rows: number, hyperparameters: Record<string, string>): EvaluationArithmetic {
  const groupSize = Math.max(1, integer(hyperparameters, 'eval_group_size', defaultHyperparameters('AgentRFTEvaluation')));
  return { rows, groupSize, totalRollouts: rows * groupSize };
}

const count = (n: number) => n.toLocaleString('en-US');

/** The arithmetic as the review step shows it, one line each. */
export function describeTrainingArithmetic(a: TrainingArithmetic): string[] {
  const stop =
    a.stopsBy === 'max_steps'
      ? `max_steps ${a.maxSteps} stops first (max_epochs ${a.maxEpochs} would allow ${count(a.maxEpochs * a.stepsPerEpoch)} steps)`
      : a.stopsBy === 'max_epochs'
        ? `max_epochs ${a.maxEpochs} stops first at step ${count(a.totalSteps)} (max_steps is ${a.maxSteps})`
        : `max_steps and max_epochs both stop at step ${count(a.totalSteps)}`;
  const runs = Math.floor(a.totalSteps / a.valEvery) - Math.floor(a.resumeFrom / a.valEvery);
  return [
    ...(a.resumeFrom > 0
      ? [
          `resumes from the checkpoint of step ${count(a.resumeFrom)}: steps ${count(a.resumeFrom + 1)}…${count(a.totalSteps)} (${count(a.stepsToRun)} steps)`,
        ]
      : []),
    `${count(a.trainRows)} rows / batch ${a.batchSize} = ${a.stepsPerEpoch} steps per epoch${a.leftoverRows ? ` (${a.leftoverRows} rows do not fill a batch)` : ''}`,
    `${a.batchSize} × group ${a.groupSize} = ${count(a.rolloutsPerStep)} rollouts per step`,
    stop,
    `${count(a.stepsToRun)} steps × ${count(a.rolloutsPerStep)} = ${count(a.trainingRollouts)} training rollouts` +
      (a.validationRollouts ? ` + ${count(a.validationRollouts)} validation = ${count(a.totalRollouts)} rollouts` : ''),
    ...(a.validationRollouts
      ? [
          `validation: ${count(a.validationRows ?? 0)} validation rows × ${count(runs)} runs (every val_every ${a.valEvery} steps) = ${count(a.validationRollouts)} rollouts`,
        ]
      : []),
  ];
}

export function describeEvaluationArithmetic(a: EvaluationArithmetic): string[] {
  return [`${count(a.rows)} rows × eval_group_size ${a.groupSize} = ${count(a.totalRollouts)} rollouts`];
}
