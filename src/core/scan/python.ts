import { RESULT_MARKER } from '../reward/protocol';
import type { Transcript } from '../transcript/model';
import type { ScanMark } from './types';

/** What the user's scanner (transcript_scan.py) reads on stdin: the file, its function, and transcripts named by position. */
export interface PythonScanRequest {
  file: string;
  function: string;
  items: { name: string; transcript: Transcript }[];
}

/** What a scanner said: marks per item name, and the items it broke on with the user's line. */
export type PythonScanResponse =
  | { ok: true; marks: Record<string, ScanMark[]>; failures: Record<string, { message: string; line?: number }> }
  | { ok: false; error: string; message: string; line?: number };

/** The scanner `FILE.py[:function]` names (default function: `scan`). */
export function scannerSpec(text: string): { file: string; function: string } {
  const m = /^(.*\.py):([A-Za-z_]\w*)$/.exec(text);
  return m ? { file: m[1], function: m[2] } : { file: text, function: 'scan' };
}

/** The result line in the script's stdout, or undefined when there is none (the run crashed). */
export function parsePythonScanOutput(stdout: string): PythonScanResponse | undefined {
  const line = stdout.split(/\r?\n/).find((l) => l.startsWith(RESULT_MARKER));
  if (!line) return undefined;
  try {
    const value = JSON.parse(line.slice(RESULT_MARKER.length)) as PythonScanResponse;
    return value && typeof value === 'object' && typeof value.ok === 'boolean' ? value : undefined;
  } catch {
    return undefined;
  }
}
