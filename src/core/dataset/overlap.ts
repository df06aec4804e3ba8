import { lineSpan } from './positions';
import type { DatasetReport, Finding } from './types';

export interface Overlap {
  ids: string[];
  answers: string[];
}

interface OverlapResult {
  overlap: Overlap;
  /** Findings for the training file and for the validation file, at most `maxFindings` each. */
  training: Finding[];
  validation: Finding[];
}

/**
 * Ids and answers in both files, from a validation report validated `against` the training report:
 * validation would no longer measure held-out tasks. Reported on both files, each pointing at the other.
 */
export function trainValOverlap(
  validation: DatasetReport,
  paths: { training: string; validation: string },
  maxFindings = 1000,
): OverlapResult {
  const result: OverlapResult = { overlap: { ids: [], answers: [] }, training: [], validation: [] };
  for (const hit of validation.overlaps) {
    (hit.kind === 'id' ? result.overlap.ids : result.overlap.answers).push(hit.key);
    const why = 'validation no longer measures held-out tasks.';
    if (result.training.length < maxFindings) {
      result.training.push({
        code: 'train-val-overlap',
        severity: 'error',
        message: `The ${hit.kind} '${hit.key}' is also in the validation file (line ${hit.line}): ${why}`,
        span: lineSpan(hit.trainingLine),
        row: hit.trainingLine,
        related: [{ span: lineSpan(hit.line), message: `'${hit.key}' in the validation file`, path: paths.validation }],
      });
    }
    if (result.validation.length < maxFindings) {
      result.validation.push({
        code: 'train-val-overlap',
        severity: 'error',
        message: `The ${hit.kind} '${hit.key}' is also in the training file (line ${hit.trainingLine}): ${why}`,
        span: lineSpan(hit.line),
        row: hit.line,
        related: [{ span: lineSpan(hit.trainingLine), message: `'${hit.key}' in the training file`, path: paths.training }],
      });
    }
  }
  result.overlap.ids.sort();
  result.overlap.answers.sort();
  return result;
}

/** The same comparison from two reports' `ids`/`answers` maps (both validated with `trackKeys`), for callers that validate the files independently. */
export function compareTrainVal(
  training: DatasetReport,
  validation: DatasetReport,
  paths: { training: string; validation: string },
  maxFindings = 1000,
): OverlapResult {
  const overlaps: DatasetReport['overlaps'] = [];
  for (const [kind, train, val] of [
    ['id', training.ids, validation.ids],
    ['answer', training.answers, validation.answers],
  ] as const) {
    for (const [key, line] of val) {
      const trainingLine = train.get(key);
      if (trainingLine !== undefined) overlaps.push({ kind, key, line, trainingLine });
    }
  }
  // The order a streamed validation finds them in: by line, the answer before the id.
  overlaps.sort((a, b) => a.line - b.line || (a.kind === b.kind ? 0 : a.kind === 'answer' ? -1 : 1));
  return trainValOverlap({ ...validation, overlaps }, paths, maxFindings);
}
