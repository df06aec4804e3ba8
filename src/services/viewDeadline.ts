import type { AwsErrorExplained, Explainer } from '../aws/errors';

/** Seconds a view's load may take: a stalled service shows a sentence instead of a spinner forever. */
const VIEW_LOAD_SECONDS = 120;

/** The signal of one view load: aborts at the deadline or when `cancel` does; `timedOut()` tells the deadline apart. */
export interface ViewDeadline {
  signal: AbortSignal;
  timedOut(): boolean;
  /** "<what> gave no result within 120 s…", the sentence for a load the deadline ended. */
  sentence(what: string): string;
  /** What ended the load `what`: the deadline when it did, else the error as the explainer reads it. */
  failure(error: unknown, what: string, explain: Explainer): AwsErrorExplained;
}

export function viewDeadline(cancel?: AbortSignal, seconds = VIEW_LOAD_SECONDS): ViewDeadline {
  const deadline = AbortSignal.timeout(seconds * 1000);
  const sentence = (what: string) => `${what} gave no result within ${seconds} s. Check the network or mtrl.aws.endpoint, then try again.`;
  return {
    signal: cancel ? AbortSignal.any([cancel, deadline]) : deadline,
    timedOut: () => deadline.aborted,
    sentence,
    failure: (error, what, explain) =>
      deadline.aborted ? { kind: 'unreachable', sentence: sentence(what) } : explain.explained(error, what),
  };
}
