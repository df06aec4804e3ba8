import { lineSpan } from './positions';
import type { DatasetReport, Finding } from './types';

export interface Overlap {
  ids: string[];
  answers: string[];
}

export interface OverlapResult {
  overlap: Overlap;
  /** Findings for the training file and for the validation file, at most `maxFindings` each. */
  training: Finding[];
  validation: Finding[];
}

/** Ids and answers that appear in both the training and the validation file: validation would no longer measure held-out tasks. */
export function compareTrainVal(training: DatasetReport, validation: DatasetReport, paths: { training: string; validation: string }, maxFindings = 1000): OverlapResult {
  const result: OverlapResult = { overlap: { ids: [], answers: [] }, training: [], validation: [] };
  const compare = (kind: 'id' | 'answer', train: Map<string, number>, val: Map<string, number>, into: string[]) => {
    const [small, large, smallIsTrain] = train.size <= val.size ? [train, val, true] : [val, train, false];
    for (const [key, line] of small) {
      const other = large.get(key);
      if (other === undefined) continue;
      into.push(key);
      const [trainLine, valLine] = smallIsTrain ? [line, other] : [other, line];
      if (result.training.length < maxFindings) {
        result.training.push({
          code: 'train-val-overlap',
          severity: 'error',
          message: `The ${kind} '${key}' is also in the validation file (line ${valLine}): validation no longer measures held-out tasks.`,
          span: lineSpan(trainLine),
          row: trainLine,
          related: [{ span: lineSpan(valLine), message: `'${key}' in the validation file`, path: paths.validation }],
        });
      }
      if (result.validation.length < maxFindings) {
        result.validation.push({
          code: 'train-val-overlap',
          severity: 'error',
          message: `The ${kind} '${key}' is also in the training file (line ${trainLine}): validation no longer measures held-out tasks.`,
          span: lineSpan(valLine),
          row: valLine,
          related: [{ span: lineSpan(trainLine), message: `'${key}' in the training file`, path: paths.training }],
        });
      }
    }
    into.sort();
  };
  compare('id', training.ids, validation.ids, result.overlap.ids);
  compare('answer', training.answers, validation.answers, result.overlap.answers);
  return result;
}
