import { escapeControls } from '../text/display';
import { formatFromName } from './names';
import { lineSpan } from './positions';
import { SUMMARY_EXAMPLES, summaryFinding } from './summarized';
import { DEFAULT_MAX_PER_CODE, type DatasetReport, type Finding, type RelatedLocation } from './types';

export interface Overlap {
  ids: string[];
  answers: string[];
}

interface OverlapResult {
  overlap: Overlap;
  /** Findings for the training file and for the validation file: the first `maxPerCode` each, then one summary finding. */
  training: Finding[];
  validation: Finding[];
  /** Overlap findings per file in all, listed or summarized (the `counts` of the code `train-val-overlap`). */
  count: number;
}

/** Keeps the first `max` findings of one file; past it only counts them and keeps example lines for the summary. */
class CappedFindings {
  readonly findings: Finding[] = [];
  private readonly examples: number[] = [];
  private count = 0;
  constructor(private readonly max: number) {}

  add(line: number, message: string, related: RelatedLocation): void {
    if (++this.count > this.max) {
      // A line whose id and answer both overlap is one example, not two.
      if (this.examples.length < SUMMARY_EXAMPLES && this.examples.at(-1) !== line) this.examples.push(line);
      return;
    }
    this.findings.push({ code: 'train-val-overlap', severity: 'error', message, span: lineSpan(line), row: line, related: [related] });
  }

  finish(path: string): Finding[] {
    if (this.count > this.max)
      this.findings.push(summaryFinding('train-val-overlap', this.count, this.max, this.examples, formatFromName(path) ?? 'jsonl'));
    return this.findings;
  }
}

/**
 * Ids and answers in both files, from a validation report validated `against` the training report:
 * validation would no longer measure held-out tasks. Reported on both files, each pointing at the other,
 * and summarized past `maxPerCode` per file like every other finding.
 */
export function trainValOverlap(
  validation: DatasetReport,
  paths: { training: string; validation: string },
  maxPerCode = DEFAULT_MAX_PER_CODE,
): OverlapResult {
  const overlap: Overlap = { ids: [], answers: [] };
  const training = new CappedFindings(maxPerCode);
  const held = new CappedFindings(maxPerCode);
  const why = 'validation no longer measures held-out tasks.';
  for (const hit of validation.overlaps) {
    (hit.kind === 'id' ? overlap.ids : overlap.answers).push(hit.key);
    // The key is the file's text: shown escaped, so a control or bidi character cannot garble the message.
    const key = escapeControls(hit.key);
    training.add(hit.trainingLine, `The ${hit.kind} '${key}' is also in the validation file (line ${hit.line}): ${why}`, {
      span: lineSpan(hit.line),
      message: `'${key}' in the validation file`,
      path: paths.validation,
    });
    held.add(hit.line, `The ${hit.kind} '${key}' is also in the training file (line ${hit.trainingLine}): ${why}`, {
      span: lineSpan(hit.trainingLine),
      message: `'${key}' in the training file`,
      path: paths.training,
    });
  }
  overlap.ids.sort();
  overlap.answers.sort();
  return {
    overlap,
    training: training.finish(paths.training),
    validation: held.finish(paths.validation),
    count: validation.overlaps.length,
  };
}

/** The same comparison from two reports' `ids`/`answers` maps (both validated with `trackKeys`), for callers that validate the files independently. */
export function compareTrainVal(
  training: DatasetReport,
  validation: DatasetReport,
  paths: { training: string; validation: string },
  maxPerCode = DEFAULT_MAX_PER_CODE,
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
  return trainValOverlap({ ...validation, overlaps }, paths, maxPerCode);
}
