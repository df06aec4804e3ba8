import { parsePythonScanOutput, type PythonScanRequest, type PythonScanResponse } from '../../core/scan/python';
import type { Transcript } from '../../core/transcript/model';
import { runContained, type ContainedFailure } from './containedRun';

/** Transcripts sent to one run of the scanner: the user's module is imported once per batch, and a request stays a few MB. */
const BATCH = 2000;

export interface PythonScan {
  python: string;
  /** Absolute path of `transcript_scan.py`. */
  script: string;
  file: string;
  function: string;
  timeoutMs: number;
  signal?: AbortSignal;
  onStderr?: (text: string) => void;
}

/** Marks per transcript position, and the rollouts the scanner broke on; a run that failed as a whole is thrown as its sentence. */
export async function runPythonScanner(
  run: PythonScan,
  transcripts: readonly Transcript[],
): Promise<{ marks: Map<number, { kind: string; turn?: number }[]>; failures: { index: number; message: string; line?: number }[] }> {
  const marks = new Map<number, { kind: string; turn?: number }[]>();
  const failures: { index: number; message: string; line?: number }[] = [];
  for (let first = 0; first < transcripts.length; first += BATCH) {
    const request: PythonScanRequest = {
      file: run.file,
      function: run.function,
      items: transcripts.slice(first, first + BATCH).map((transcript, k) => ({ name: String(first + k), transcript })),
    };
    const { response } = await runContained<PythonScanResponse>({
      python: run.python,
      script: run.script,
      request,
      timeoutMs: run.timeoutMs,
      signal: run.signal,
      onStderr: run.onStderr,
      parse: parsePythonScanOutput,
      say: {
        timeout: `The scanner did not finish ${transcripts.length > BATCH ? `a batch of ${BATCH} rollouts ` : ''}within ${run.timeoutMs / 1000} s and was stopped: allow more time with --timeout.`,
        cancelled: 'The scan was cancelled.',
        crashed: (how) => `The scanner ${how} without a result`,
      },
    });
    if (!response.ok) throw new Error(failureSentence(response, run.file));
    for (const [name, found] of Object.entries(response.marks)) marks.set(Number(name), found);
    for (const [name, f] of Object.entries(response.failures)) failures.push({ index: Number(name), ...f });
  }
  return { marks, failures };
}

function failureSentence(f: ContainedFailure | Extract<PythonScanResponse, { ok: false }>, file: string): string {
  const line = 'line' in f && f.line ? ` (${file}:${f.line})` : '';
  return `${f.message}${line}`;
}
