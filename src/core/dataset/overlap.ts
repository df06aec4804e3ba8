import { escapeControls } from '../text/display';
import { formatFromName } from './names';
import { lineSpan } from './positions';
import { SUMMARY_EXAMPLES, summaryFinding } from './summarized';
import { DEFAULT_MAX_PER_CODE, type DatasetReport, type Finding, type RelatedLocation } from './types';

/** The keys both files hold that make a task the same: ids, prompts, and answers where the answer is the task (Wordle). */
export interface Overlap {
  ids: string[];
  prompts: string[];
  answers: string[];
}

interface OverlapResult {
  overlap: Overlap;
  /** Findings for the training file and for the validation file: the first `maxPerCode` each, then one summary finding. */
  training: Finding[];
  validation: Finding[];
  /** Overlap findings per file in all, listed or summarized (the `counts` of the code `train-val-overlap`). */
  count: number;
  /** Answers both files hold on tasks that differ otherwise: one info finding for the validation file, counted (`shared-answers`). */
  shared?: { count: number; finding: Finding };
}

/** Shared answers alone are not the same task: math and support sets repeat answers by nature, so they are one counted note. */
function sharedAnswers(hits: DatasetReport['overlaps']): OverlapResult['shared'] {
  if (!hits.length) return undefined;
  const examples = hits
    .slice(0, 3)
    .map((h) => `'${escapeControls(h.key)}' (line ${h.line}, training line ${h.trainingLine})`)
    .join(', ');
  const message = `${hits.length} answer${hits.length > 1 ? 's' : ''} of this file also occur${hits.length > 1 ? '' : 's'} in the training file, on tasks with other ids and prompts: ${examples}${hits.length > 3 ? ', …' : ''}. Tasks of math or support sets share answers by nature, so this is not an overlap.`;
  return {
    count: hits.length,
    finding: { code: 'shared-answers', severity: 'info', message, span: lineSpan(hits[0].line), row: hits[0].line },
  };
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
  const overlap: Overlap = { ids: [], prompts: [], answers: [] };
  const training = new CappedFindings(maxPerCode);
  const held = new CappedFindings(maxPerCode);
  const why = 'validation no longer measures held-out tasks.';
  // A copied task is one overlap: its id stands for it, not its prompt as well.
  const idLines = new Set(validation.overlaps.filter((h) => h.kind === 'id').map((h) => h.line));
  const same = validation.overlaps.filter((h) => h.kind !== 'shared-answer' && !(h.kind === 'prompt' && idLines.has(h.line)));
  const sameLines = new Set(same.map((h) => h.line));
  for (const hit of same) {
    (hit.kind === 'id' ? overlap.ids : hit.kind === 'prompt' ? overlap.prompts : overlap.answers).push(hit.key);
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
  overlap.prompts.sort();
  overlap.answers.sort();
  return {
    overlap,
    training: training.finish(paths.training),
    validation: held.finish(paths.validation),
    count: same.length,
    // A copied task's answer is part of its overlap, not a shared answer besides.
    shared: sharedAnswers(validation.overlaps.filter((h) => h.kind === 'shared-answer' && !sameLines.has(h.line))),
  };
}

/** The same comparison from two reports' key maps (both validated with `trackKeys`), for callers that validate the files independently. */
export function compareTrainVal(
  training: DatasetReport,
  validation: DatasetReport,
  paths: { training: string; validation: string },
  maxPerCode = DEFAULT_MAX_PER_CODE,
): OverlapResult {
  const overlaps: DatasetReport['overlaps'] = [];
  for (const [kind, train, val] of [
    ['prompt', training.prompts, validation.prompts],
    ['answer', training.answers, validation.answers],
    ['id', training.ids, validation.ids],
  ] as const) {
    for (const [key, line] of val) {
      const trainingLine = train.get(key);
      const hit = kind === 'answer' && !validation.taskAnswers.has(key) ? 'shared-answer' : kind;
      if (trainingLine !== undefined) overlaps.push({ kind: hit, key, line, trainingLine });
    }
  }
  // The order a streamed validation finds them in: by line, then prompt, answer, id.
  const order = ['prompt', 'answer', 'shared-answer', 'id'];
  overlaps.sort((a, b) => a.line - b.line || order.indexOf(a.kind) - order.indexOf(b.kind));
  return trainValOverlap({ ...validation, overlaps }, paths, maxPerCode);
}
