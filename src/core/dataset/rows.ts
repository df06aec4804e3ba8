import { datasetChecks } from '../environments/registry';
import type { PackDatasetChecks } from '../environments/types';
import { isFields, parsePythonJson } from '../text/json';
import { findJsonError } from './json-scan';
import { lineSpan, type RowPlace } from './positions';
import { FindingLog } from './findingLog';
import { Repeats } from './repeats';
import { rowCountFinding } from './rowCounts';
import * as rowText from './rowText';
import {
  DEFAULT_BATCH_SIZE,
  DEFAULT_MAX_FINDINGS,
  DEFAULT_MAX_PER_CODE,
  type DatasetConvention,
  type DatasetReport,
  type FindingCode,
  type RelatedLocation,
  type Span,
  type ValidateOptions,
} from './types';

/** Checks rows one at a time, keeping only what later rows and the file summary need. */
export class RowChecker {
  private rows = 0;
  private fallback?: { column: string; place: RowPlace; count: number; columns: string[] };
  /** Every column of the file where its format lists them (Parquet reads only those the checks use). */
  private fileColumns?: string[];
  private readonly batchSize: number;
  private readonly convention: DatasetConvention;
  /** Findings of each code, kept or not; past `maxPerCode` only counted, with the first rows as examples. */
  private readonly log: FindingLog;
  private readonly repeats: Repeats;
  /** The pack whose convention was asked for: its checks apply to every row. */
  private readonly forced?: PackDatasetChecks;
  /** Under `auto`: the packs whose checks apply to rows that look like theirs. */
  private readonly candidates: PackDatasetChecks[];
  // Most files repeat one prompt text: its lower-case form and the pack it looks like are computed once.
  private lastShown?: string;
  private lastShownLower = '';
  private lastShownPack?: PackDatasetChecks;

  constructor(private readonly options: ValidateOptions) {
    this.batchSize = options.batchSize && options.batchSize > 0 ? Math.floor(options.batchSize) : DEFAULT_BATCH_SIZE;
    this.convention = options.convention ?? 'auto';
    const packs = datasetChecks();
    this.forced = packs.find((p) => p.convention === this.convention);
    this.candidates = this.convention === 'auto' ? packs : [];
    this.log = new FindingLog(options.maxFindings ?? DEFAULT_MAX_FINDINGS, options.maxPerCode ?? DEFAULT_MAX_PER_CODE);
    this.repeats = new Repeats(this.log, options);
  }

  /** Records a finding that is not about a parsed row: a syntax error, an unreadable file. */
  report(code: FindingCode, message: string, span: Span, row: number, related?: RelatedLocation[]): void {
    // The waiting look-ups of earlier rows report first, so findings keep the order of rows.
    this.repeats.flush();
    this.log.report(code, message, span, row, related);
  }

  /** The number of rows the file says it holds and its columns, where the format tells them first (Parquet). */
  expectRows(rows: number, columns?: string[]): void {
    this.repeats.expect(rows);
    this.fileColumns = columns;
  }

  /** Counts a row the reader could not parse, so row numbers and totals stay right. */
  countBrokenRow(): void {
    this.rows++;
  }

  check(value: unknown, place: RowPlace): void {
    this.rows++;
    if (value === null || typeof value !== 'object' || Array.isArray(value)) {
      this.report('not-object', rowText.notObjectMessage(value), place.span, place.row);
      return;
    }
    const row = value as Record<string, unknown>;
    let column = 'prompt';
    let prompt = row.prompt;
    if (prompt === undefined && !('prompt' in row)) {
      const wrapped = rowText.wrappedRowsMessage(row);
      if (wrapped) {
        this.report('not-object', wrapped, place.span, place.row);
        return;
      }
      const first = Object.keys(row)[0];
      if (first === undefined) {
        this.report('empty-prompt', 'The row has no columns, so the agent would get an empty prompt.', place.span, place.row);
        return;
      }
      column = first;
      prompt = row[first];
      if (this.fallback) this.fallback.count++;
      else this.fallback = { column, place, count: 1, columns: Object.keys(row) };
    }
    const flat = column === 'prompt' && ('answer' in row || 'id' in row);
    if (flat) {
      const beside = ['answer', 'id']
        .filter((k) => k in row)
        .map((k) => `\`${k}\``)
        .join(' and ');
      this.report(
        'flat-row',
        `${beside} ${beside.includes(' and ') ? 'sit' : 'sits'} beside \`prompt\`: the service passes only the prompt column, so the agent never sees ${beside.includes(' and ') ? 'them' : 'it'}. Wrap the row into a JSON prompt string.`,
        place.span,
        place.row,
      );
    }
    if (typeof prompt !== 'string') {
      this.report('prompt-not-string', rowText.notTextMessage(column, prompt), this.valueSpan(place, column), place.row);
      return;
    }
    if (rowText.isBlank(prompt)) {
      this.report(
        'empty-prompt',
        `The \`${column}\` value is empty: the agent would get nothing to work on.`,
        this.valueSpan(place, column),
        place.row,
      );
      return;
    }
    if (flat) {
      this.checkTask(row, prompt, place, column, true);
      return;
    }
    let inner = this.convention === 'none' || !rowText.startsLikeJson(prompt) ? NOT_JSON : parseInner(prompt);
    const python = inner === UNPARSED ? parsePythonJson(prompt) : undefined;
    if (python) {
      const span = place.locate?.(column, python.offset, python.token.length) ?? place.span;
      this.report('nan-value', rowText.pythonFloatMessage(python.token, 'prompt'), span, place.row);
      inner = python.value;
    }
    const task = inner !== NOT_JSON && inner !== UNPARSED && isFields(inner) ? inner : undefined;
    // The prompt string is what the agent receives: the same one twice is the same task.
    this.duplicatePrompt(prompt, task, place, column);
    if (this.convention === 'none') return;
    const strict = this.convention !== 'auto';
    if (inner === NOT_JSON) {
      if (strict)
        this.report(
          'inner-json-syntax',
          `The prompt is plain text; the ${this.convention} convention needs a JSON object string with \`prompt\`, \`answer\` and \`id\`.`,
          this.valueSpan(place, column),
          place.row,
        );
      return;
    }
    if (inner === UNPARSED) {
      const error = findJsonError(prompt) ?? { offset: 0, message: 'Invalid JSON' };
      const span = place.locate?.(column, error.offset, 1) ?? place.span;
      this.report(
        'inner-json-syntax',
        `The prompt string starts like JSON but does not parse: ${error.message} (character ${error.offset + 1} of the prompt string).`,
        span,
        place.row,
      );
      return;
    }
    if (!task) {
      if (strict)
        this.report(
          'inner-json-syntax',
          `The prompt string holds ${rowText.kindOf(inner)}; the ${this.convention} convention needs an object with \`prompt\`, \`answer\` and \`id\`.`,
          this.valueSpan(place, column),
          place.row,
        );
      return;
    }
    this.checkTask(task, shownOf(task), place, column, false);
  }

  /**
   * Any task: the same prompt twice is the same task trained twice as often; unless the row's pack has rows that differ
   * by answer (the answer and id checks cover those). A JSON task's pack is told by its own fields, as its checks are,
   * not by the whole prompt string: lower-casing and searching that, new on every row, cost support rows a tenth.
   */
  private duplicatePrompt(prompt: string, task: Record<string, unknown> | undefined, place: RowPlace, column: string): void {
    const pack = task
      ? this.packOfTask(task, shownOf(task))
      : (this.forced ?? (this.candidates.length ? this.packOfPrompt(prompt.toLowerCase()) : undefined));
    if (pack?.answerIsTheTask) return;
    this.repeats.prompt(prompt, place, column);
  }

  /** The pack whose checks a task gets: the convention's, else the one its prompt text looks like, else its id. */
  private packOfTask(task: Record<string, unknown>, shown: string | undefined): PackDatasetChecks | undefined {
    // Looked at whatever the convention: the leak check reads the prompt's lower-case form.
    if (shown !== undefined) this.look(shown);
    if (this.forced) return this.forced;
    if (shown !== undefined && this.lastShownPack) return this.lastShownPack;
    const id = rowText.scalarText(task.id);
    if (id !== undefined) for (const pack of this.candidates) if (pack.idLooksLike(id)) return pack;
    return undefined;
  }

  private valueSpan(place: RowPlace, column: string): Span {
    return place.locate?.(column) ?? place.span;
  }

  private look(shown: string): void {
    if (shown === this.lastShown) return;
    this.lastShown = shown;
    this.lastShownLower = shown.toLowerCase();
    this.lastShownPack = this.packOfPrompt(this.lastShownLower);
  }

  /** A loop, not `find` with a closure: it runs on every row. `lower`: the prompt lower-cased. */
  private packOfPrompt(lower: string): PackDatasetChecks | undefined {
    for (const pack of this.candidates) if (pack.promptLooksLike(lower)) return pack;
    return undefined;
  }

  /** The task checks on the fields `prompt`, `answer` and `id` (inside the prompt string, or beside it for a flat row). */
  private checkTask(task: Record<string, unknown>, shown: string | undefined, place: RowPlace, column: string, flat: boolean): void {
    const answer = rowText.scalarText(task.answer);
    const id = rowText.scalarText(task.id);
    const pack = this.packOfTask(task, shown);
    if (answer === undefined || rowText.isBlank(answer)) {
      if (!flat)
        this.report(
          'missing-answer',
          'The task has no `answer`: the environment and the reward cannot score the rollout.',
          this.valueSpan(place, column),
          place.row,
        );
    } else {
      const key = rowText.normalizeAnswer(answer);
      const problem = pack?.answerProblem(answer);
      if (problem) this.report('bad-answer', problem, this.valueSpan(place, column), place.row);
      // Only where the answer is the task (a secret word) does the same answer mean the same task.
      this.repeats.answer(key, !!pack?.answerIsTheTask, place, column);
      // The word search first: an answer is rarely in its prompt, and it is cheaper than the leak rule's pattern.
      if (shown !== undefined && rowText.containsLowerWord(this.lastShownLower, key) && rowText.leaks(key, pack)) {
        this.report(
          'answer-leak',
          `The answer '${answer}' appears in the prompt text shown to the model: the task gives its solution away.`,
          this.valueSpan(place, column),
          place.row,
        );
      }
    }
    if (id === undefined || rowText.isBlank(id)) {
      if (!flat)
        this.report(
          'missing-id',
          'The task has no `id`: its rollouts cannot be told apart in the logs.',
          this.valueSpan(place, column),
          place.row,
        );
    } else this.repeats.id(id, place, column);
  }

  finish(): DatasetReport {
    this.repeats.flush();
    const { role, format } = this.options;
    if (this.fallback) {
      const { column, place, count, columns } = this.fallback;
      this.report('missing-prompt', rowText.missingPromptMessage(column, count, this.fileColumns ?? columns), place.span, place.row);
    }
    const b = this.batchSize;
    // A file read only in part has no true row count to hold against the batch size.
    const counted = !this.log.counts.unreadable;
    const count = role === 'training' && counted ? rowCountFinding(this.rows, b, this.options.batchSizeSource) : undefined;
    if (count) this.report(count.code, count.message, lineSpan(1), 0);
    this.log.summarize(format);
    return {
      format,
      role,
      rows: this.rows,
      counts: { ...this.log.counts },
      truncated: this.log.truncated,
      batchSize: b,
      stepsPerEpoch: Math.floor(this.rows / b),
      findings: this.log.findings,
      omitted: this.log.omitted,
      ids: this.repeats.idStrings,
      prompts: this.repeats.promptStrings,
      answers: this.repeats.answerStrings,
      taskAnswers: this.repeats.taskAnswers,
      keyTables: { ids: this.repeats.ids, answers: this.repeats.answers, prompts: this.repeats.prompts },
      overlaps: this.repeats.overlaps,
    };
  }
}

/** What a prompt string holds when it is not read as a JSON task: plain text (or the `none` convention), or text that does not parse. */
const NOT_JSON = Symbol('not JSON');
const UNPARSED = Symbol('unparsed');

function parseInner(prompt: string): unknown {
  try {
    return JSON.parse(prompt);
  } catch {
    return UNPARSED;
  }
}

const shownOf = (task: Record<string, unknown>) => (typeof task.prompt === 'string' ? task.prompt : undefined);
