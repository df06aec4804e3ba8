import { KEPT_OUTPUT_BYTES, runContained } from './containedRun';
import {
  DEFAULT_TIMEOUT_SECONDS,
  MAX_TIMEOUT_SECONDS,
  parseHarnessOutput,
  type HarnessResponse,
  type HarnessRunFailure,
  type TranscriptHarnessRequest,
} from '../../core/reward/protocol';

export { KEPT_OUTPUT_BYTES };

interface HarnessRun {
  /** The interpreter: a path or a command on PATH. */
  python: string;
  /** Absolute path of `transcript_reward.py`. */
  script: string;
  request: TranscriptHarnessRequest;
  timeoutMs?: number;
  signal?: AbortSignal;
  /** Called with each chunk the user's code (or Python) writes to stderr or stdout. */
  onStderr?: (text: string) => void;
}

interface HarnessOutcome {
  response: HarnessResponse | HarnessRunFailure;
  stderr: string;
  /** Process id of the harness, for the tests that prove it is gone. */
  pid?: number;
}

/** Runs the reward harness once: request on stdin, one result line back, killed on timeout or abort. */
export function runHarness(run: HarnessRun): Promise<HarnessOutcome> {
  // setTimeout fires at once past 2^31 ms: the run is clamped to a sane maximum instead.
  const timeoutMs = Math.min(run.timeoutMs ?? DEFAULT_TIMEOUT_SECONDS * 1000, MAX_TIMEOUT_SECONDS * 1000);
  const seconds = timeoutMs / 1000;
  return runContained({
    ...run,
    timeoutMs,
    parse: parseHarnessOutput,
    say: {
      timeout: `The reward code did not finish within ${seconds} s and was stopped: an endless loop, or slow work at import? If it is just slow, allow more time (mtrl.reward.timeoutSeconds, or --timeout).`,
      cancelled: 'The reward preview was cancelled.',
      crashed: (how) => `The reward harness ${how} without a result`,
    },
  });
}
