import type { Transcript } from '../transcript/model';
import { RolloutCollector, type SkippedLine } from './collect';
import { prepareTranscripts, type JobContext } from './prepare';
import { groupKeysHeld } from '../transcript/tasks';

/** Where a saved transcript's line lies in a local file: the board reads its turns back from there when it is opened. */
export interface SavedAt {
  file: string;
  offset: number;
  bytes: number;
}

/** What a reader yields: one log line (or multi-line message) with the epoch ms of its event, or a rollout read whole (and where it lies, if it can be read again). */
export type ReadItem = { text: string; time?: number } | { transcript: Transcript; at?: SavedAt };

/**
 * The one way from what a reader read to rollouts a view shows: collect (records, traces, SDK and tool-output lines),
 * keep this source's own, then prepare (pack, dataset row, step, group, solved). The board, `mtrl rollouts` and the
 * browser demo all stream through it.
 */
export class RolloutPipeline {
  private collector = new RolloutCollector();
  private groupKey = groupKeysHeld();
  private readonly where = new WeakMap<Transcript, SavedAt>();

  constructor(
    public job: JobContext = {},
    private readonly accepts: (t: Transcript) => boolean = () => true,
  ) {}

  /** Lines read so far, for progress messages. */
  get lines(): number {
    return this.collector.lines;
  }

  /** Lines not read because their JSON nests past the limit, for the skipped-line notes. */
  tooDeepLines(): SkippedLine[] {
    return this.collector.tooDeep.map((line) => ({ line, chars: 0, tooDeep: true }));
  }

  feed(item: ReadItem): void {
    if ('transcript' in item) {
      if (item.at) this.where.set(item.transcript, item.at);
      this.collector.addTranscript(item.transcript);
    } else this.collector.add(item.text, item.time);
  }

  /** Where a rollout this pipeline readied lies in its file, when its reader can read it again (saved transcripts streamed from disk). */
  savedAt(t: Transcript): SavedAt | undefined {
    return this.where.get(t);
  }

  /** Rollouts completed since the last call, ready for the views. */
  take(): Transcript[] {
    return this.ready(this.collector.take());
  }

  /** Ends the input: rollouts still being rebuilt come out too. */
  finish(): Transcript[] {
    return this.ready(this.collector.finish());
  }

  /** Starts over (the source is read again from the start). */
  reset(): void {
    this.collector = new RolloutCollector();
    this.groupKey = groupKeysHeld();
  }

  private ready(transcripts: Transcript[]): Transcript[] {
    return prepareTranscripts(transcripts.filter(this.accepts), this.job, this.groupKey);
  }
}
