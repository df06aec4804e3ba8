import type { Sweep } from '../../core/evaluation/sweep';

/** The sweep wizard's last answers, kept per workspace as the next run's defaults (read by the stores, written by the wizard). */
export type SweepAnswers = Partial<Pick<Sweep, 'evaluationUri' | 'outputPath' | 'roleArn' | 'baseModelArn'>>;
