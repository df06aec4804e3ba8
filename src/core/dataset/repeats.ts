import type { FindingLog } from './findingLog';
import { KeyTable } from './key-table';
import { lineSpan, type RowPlace } from './positions';
import { promptKey } from './rowText';
import type { OverlapHit, Span, ValidateOptions } from './types';

type Kind = OverlapHit['kind'];

/** Look-ups held before they run together: one per row they would each wait on memory, in a run the processor overlaps them. */
const BATCH = 128;

/**
 * A prompt, answer or id seen on an earlier row (a repeat) or in the training file (an overlap). The table look-ups
 * wait in a batch until it is full or a finding is about to be reported (`flush`), so findings keep the order of rows.
 */
export class Repeats {
  readonly ids = new KeyTable(undefined, true);
  readonly answers = new KeyTable();
  readonly prompts = new KeyTable();
  readonly idStrings = new Map<string, number>();
  readonly promptStrings = new Map<string, number>();
  readonly answerStrings = new Map<string, number>();
  readonly taskAnswers = new Set<string>();
  readonly overlaps: OverlapHit[] = [];
  private readonly trackKeys: boolean;
  /**
   * Whether answers that are not the task (math, support) are looked up at all: a repeat of one is no finding, so only
   * when the keys are kept as text or a training/validation pair counts the answers it shares.
   */
  private readonly sharedAnswersRead: boolean;
  // The waiting look-ups' hashes, in columns reused from batch to batch.
  private readonly hashes = new Int32Array(2 * BATCH);
  /** 1 where the key is certainly new (an id past every earlier one): no look-up to wait on. */
  private readonly fresh = new Uint8Array(BATCH);
  // Made afresh for each batch: ~4 % less CPU than arrays kept across batches (likely the collector
  // noting each store of a young row into an old array).
  private kinds: Kind[] = [];
  private keys: string[] = [];
  private places: RowPlace[] = [];
  private columns: string[] = [];
  private waiting = 0;
  /** What the touching pass read, kept so the compiler cannot drop the reads. */
  touched = 0;

  constructor(
    private readonly log: FindingLog,
    private readonly options: ValidateOptions,
  ) {
    this.trackKeys = options.trackKeys ?? true;
    this.sharedAnswersRead = this.trackKeys || !!options.against || !!options.compared;
  }

  /** Sizes the tables for a file of `rows` rows before they come. */
  expect(rows: number): void {
    for (const table of [this.ids, this.answers, this.prompts]) table.reserve(rows);
  }

  /** The prompt string is what the agent receives: the same one twice is the same task. */
  prompt(prompt: string, place: RowPlace, column: string): void {
    this.wait('prompt', this.prompts, prompt, place, column);
  }

  /** A normalized answer; `isTheTask` where the pack's answer is the task (a secret word), so a repeat is a duplicate. */
  answer(key: string, isTheTask: boolean, place: RowPlace, column: string): void {
    if (!isTheTask && !this.sharedAnswersRead) return;
    this.wait(isTheTask ? 'answer' : 'shared-answer', this.answers, key, place, column);
  }

  id(id: string, place: RowPlace, column: string): void {
    this.wait('id', this.ids, id, place, column);
  }

  private wait(kind: Kind, table: KeyTable, key: string, place: RowPlace, column: string): void {
    const n = this.waiting++;
    this.fresh[n] = table.hashInto(key, this.hashes, 2 * n) ? 1 : 0;
    this.kinds[n] = kind;
    this.keys[n] = key;
    this.places[n] = place;
    this.columns[n] = column;
    if (this.waiting === BATCH) this.flush();
  }

  /** Runs the waiting look-ups in row order and reports their repeats. */
  flush(): void {
    const count = this.waiting;
    if (!count) return;
    this.waiting = 0;
    const { kinds, keys, places, columns } = this;
    this.kinds = [];
    this.keys = [];
    this.places = [];
    this.columns = [];
    let touched = 0;
    for (let n = 0; n < count; n++) if (!this.fresh[n]) touched |= this.tableOf(kinds[n]).touch(this.hashes[2 * n + 1]);
    this.touched = touched;
    for (let n = 0; n < count; n++) {
      const kind = kinds[n];
      const place = places[n];
      const table = this.tableOf(kind);
      const a = this.hashes[2 * n];
      const b = this.hashes[2 * n + 1];
      let first: number | undefined;
      if (this.fresh[n]) table.addNewHashed(a, b, place.line);
      else first = table.firstOrAddHashed(a, b, place.line);
      if (first === undefined) this.overlap(kind, keys[n], place.line);
      else this.repeated(kind, keys[n], first, place, columns[n]);
    }
  }

  private tableOf(kind: Kind): KeyTable {
    return kind === 'id' ? this.ids : kind === 'prompt' ? this.prompts : this.answers;
  }

  private repeated(kind: Kind, key: string, first: number, place: RowPlace, column: string): void {
    // Math or support tasks share answers by nature: only where the answer is the task does a repeat double its weight.
    if (kind === 'shared-answer') return;
    const code = kind === 'id' ? 'duplicate-id' : kind === 'prompt' ? 'duplicate-prompt' : 'duplicate-answer';
    if (this.log.summarized(code, place.row)) return;
    const span: Span = place.locate?.(column) ?? place.span;
    if (kind === 'prompt')
      this.log.keep(
        code,
        `The same prompt is already on line ${first}: that task is trained twice as often as the others.`,
        span,
        place.row,
        [{ span: lineSpan(first), message: 'first use of this prompt' }],
      );
    else if (kind === 'answer')
      this.log.keep(
        code,
        `The answer '${key}' already appears on line ${first}: that word gets twice the training weight.`,
        span,
        place.row,
        [{ span: lineSpan(first), message: `first '${key}'` }],
      );
    else
      this.log.keep(code, `The id '${key}' is already used on line ${first}.`, span, place.row, [
        { span: lineSpan(first), message: `first use of '${key}'` },
      ]);
  }

  /** A key seen for the first time in this file: kept for `compareTrainVal`, and looked up in the training file's keys. */
  private overlap(kind: Kind, key: string, line: number): void {
    if (this.trackKeys) {
      const strings = kind === 'id' ? this.idStrings : kind === 'prompt' ? this.promptStrings : this.answerStrings;
      strings.set(kind === 'prompt' ? promptKey(key) : key, line);
      if (kind === 'answer') this.taskAnswers.add(key);
    }
    const trainingLine = this.options.against?.[kind === 'id' ? 'ids' : kind === 'prompt' ? 'prompts' : 'answers'].get(key);
    if (trainingLine !== undefined) this.overlaps.push({ kind, key: kind === 'prompt' ? promptKey(key) : key, line, trainingLine });
  }
}
