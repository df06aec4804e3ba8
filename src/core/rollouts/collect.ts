import type { EnvironmentPack, PackLogLine } from '../environments/types';
import type { ToolCall, Transcript, TranscriptStatus } from '../transcript/model';
import { parseRolloutLine } from './parse';
import { SeenIds } from './traceIds';
import { JSON_TOO_DEEP } from '../text/json';
import { LineSplitter, MAX_LINE_CHARS } from '../text/lines';

/** A rollout rebuilt from a pack's tool-output lines, waiting for its `UpdateReward` line. */
interface RebuiltGame {
  calls: ToolCall[];
  /** A move that counted was played: the pack's next first move starts a new rollout. */
  counted: boolean;
  fields?: Record<string, unknown>;
}

/** How a rollout ended, from `CompleteRollout` and `Rollout error` lines. */
interface Ending {
  status: TranscriptStatus;
  error?: string;
}

/**
 * Turns log lines into transcripts, in order. Records and traces are taken whole; without them, rollouts are rebuilt
 * from the SDK's `UpdateReward` lines (the reward), `CompleteRollout` and `Rollout error` lines (the status), and a pack's
 * tool-output lines (the turns, per AgentCore session when the lines say), each game paired with the next reward line.
 */
export class RolloutCollector {
  private ready: Transcript[] = [];
  private records = 0;
  private readonly open = new Map<string, RebuiltGame>();
  private readonly finished: { session: string; game: RebuiltGame }[] = [];
  private readonly endings = new Map<string, Ending>();
  private readonly rebuiltById = new Map<string, Transcript>();
  private readonly traceIds = new SeenIds();
  private rebuiltCount = 0;
  /** Lines read so far, for progress messages. */
  lines = 0;
  /** Lines whose JSON nests past the limit, by number: not read, named in the notes. */
  readonly tooDeep: number[] = [];

  /** Adds one log line (or a message with several lines); `time` (epoch ms of its log event) dates the rollouts it completes. */
  add(text: string, time?: number): void {
    const before = this.ready.length;
    if (text.includes('\n')) {
      for (const line of text.split('\n')) this.addLine(line);
    } else this.addLine(text);
    if (time !== undefined) for (let i = before; i < this.ready.length; i++) this.ready[i].time ??= time;
  }

  /** Adds a rollout read whole from a source other than log lines (an MLflow trace): it counts as a record. */
  addTranscript(transcript: Transcript): void {
    this.records++;
    if (transcript.source === 'trace' && !this.traceIds.add(transcript.id)) return;
    this.ready.push(transcript);
  }

  private addLine(line: string): void {
    this.lines++;
    for (const item of parseRolloutLine(line.endsWith('\r') ? line.slice(0, -1) : line)) {
      if (item.kind === 'tooDeep') this.tooDeep.push(this.lines);
      else if (item.kind === 'transcript') {
        if (!item.transcript.id) item.transcript.id = `record-${this.records + 1}`;
        this.addTranscript(item.transcript);
      } else if (this.records > 0) {
        // Records are the complete story; SDK and tool-output lines would only duplicate them.
        continue;
      } else if (item.kind === 'pack') this.addPackLine(item.pack, item.read, item.session ?? '');
      else if (item.kind === 'status') this.addEnding(item.trajectoryId, { status: item.status, error: item.error });
      else this.addReward(item.trajectoryId, item.reward, item.perTurn, item.session ?? '');
    }
  }

  private addPackLine(pack: EnvironmentPack, read: PackLogLine, session: string): void {
    let game = this.open.get(session);
    if (!game && !read.call) {
      // A closing line (Wordle's loss line) after the move that already ended the game.
      const last = [...this.finished].reverse().find((f) => f.session === session);
      if (last && read.fields) last.game.fields = { ...read.fields, ...last.game.fields };
      return;
    }
    if (game && read.starts && game.counted) {
      this.endGame(session);
      game = undefined;
    }
    if (!game) {
      this.flushFinished(session);
      game = { calls: [], counted: false };
      this.open.set(session, game);
    }
    if (read.call) game.calls.push(read.call);
    if (read.counts) game.counted = true;
    if (read.fields) game.fields = { ...game.fields, ...read.fields };
    if (read.ends || game.calls.length >= (pack.maxToolCalls ?? Infinity)) this.endGame(session);
  }

  private endGame(session: string): void {
    const game = this.open.get(session);
    if (!game) return;
    this.open.delete(session);
    this.finished.push({ session, game });
  }

  /** A finished game of this session that no reward line claimed is emitted without a reward. */
  private flushFinished(session: string): void {
    for (let i = 0; i < this.finished.length;) {
      if (this.finished[i].session === session) this.ready.push(this.rebuild(this.finished.splice(i, 1)[0].game));
      else i++;
    }
  }

  private addEnding(trajectoryId: string, ending: Ending): void {
    const known = this.rebuiltById.get(trajectoryId);
    const before = this.endings.get(trajectoryId);
    // "Already in terminal status, skipping" is a repeated call: the first ending stands.
    if (ending.status === 'skipped' && (known || before)) return;
    if (!known) {
      this.endings.set(trajectoryId, { status: ending.status, error: ending.error ?? before?.error });
      return;
    }
    known.status = ending.status;
    if (ending.error) known.error = ending.error;
  }

  private addReward(trajectoryId: string, reward: number, perTurn: number[] | undefined, session: string): void {
    let index = this.finished.findIndex((f) => f.session === session);
    if (index < 0) index = this.finished.length ? 0 : -1;
    let game: RebuiltGame | undefined;
    if (index >= 0) game = this.finished.splice(index, 1)[0].game;
    else {
      // The agent can return its reward before a last loss line arrives: take the open game of that session.
      game = this.open.get(session);
      this.open.delete(session);
    }
    const transcript = this.rebuild(game ?? { calls: [], counted: false }, trajectoryId, reward);
    if (perTurn) perTurn.forEach((r, i) => transcript.turns[i] && (transcript.turns[i].reward = r));
    this.ready.push(transcript);
  }

  private rebuild(game: RebuiltGame, trajectoryId?: string, reward?: number): Transcript {
    const id = trajectoryId ?? `rebuilt-${++this.rebuiltCount}`;
    const ending = this.endings.get(id);
    this.endings.delete(id);
    const transcript: Transcript = {
      id,
      task: { prompt: '' },
      groupKey: '',
      status: ending?.status ?? 'completed',
      turns: game.calls.map((call) => ({ toolCalls: [call] })),
      source: 'log',
      rebuilt: true,
    };
    if (ending?.error) transcript.error = ending.error;
    if (reward !== undefined) transcript.reward = reward;
    if (game.fields) transcript.fields = game.fields;
    if (trajectoryId) this.rebuiltById.set(trajectoryId, transcript);
    return transcript;
  }

  /** Rollouts completed since the last call. */
  take(): Transcript[] {
    const out = this.ready;
    this.ready = [];
    return out;
  }

  /** Ends the input: games still waiting become rollouts (without a reward) and are returned with the rest. */
  finish(): Transcript[] {
    if (this.records === 0) {
      for (const session of [...this.open.keys()]) this.endGame(session);
      for (const { game } of this.finished.splice(0)) if (game.calls.length) this.ready.push(this.rebuild(game));
    }
    return this.take();
  }
}

/** Lines of a text stream given as string or byte chunks (a file, stdin, an S3 object), in linear time; a line past MAX_LINE_CHARS is skipped and passed to `onOverlong`. */
export async function* linesOf(
  chunks: AsyncIterable<string | Uint8Array> | Iterable<string | Uint8Array>,
  onOverlong?: (line: number, chars: number) => void,
): AsyncGenerator<string> {
  const decoder = new TextDecoder();
  let ready: string[] = [];
  let line = 0;
  const splitter = new LineSplitter(
    (text) => {
      line++;
      ready.push(text);
    },
    (chars) => onOverlong?.(++line, chars),
  );
  const drain = function* () {
    const out = ready;
    ready = [];
    yield* out;
  };
  for await (const chunk of chunks) {
    splitter.push(typeof chunk === 'string' ? chunk : decoder.decode(chunk, { stream: true }));
    yield* drain();
  }
  splitter.push(decoder.decode());
  splitter.end();
  yield* drain();
}

/** A line not read, for the summary: which one and how long, or that its JSON nests too deep. */
export interface SkippedLine {
  line: number;
  chars: number;
  tooDeep?: true;
}

/** Lines named one by one before the rest are counted. */
const NAMED_SKIPPED_LINES = 10;

/**
 * What to tell about lines too long to read, as clauses: "line 2 (68,157,440 characters) is longer than 64 M characters
 * and was not read", the first ten one by one, then how many more. `mtrl rollouts` prints them, the board shows them.
 */
export function skippedLineNotes(skipped: readonly SkippedLine[]): string[] {
  const notes = skipped
    .slice(0, NAMED_SKIPPED_LINES)
    .map(({ line, chars, tooDeep }) =>
      tooDeep
        ? `line ${line} holds ${JSON_TOO_DEEP} and was not read`
        : `line ${line} (${chars.toLocaleString('en')} characters) is longer than ${MAX_LINE_CHARS / 1024 / 1024} M characters and was not read`,
    );
  if (skipped.length > NAMED_SKIPPED_LINES)
    notes.push(`${skipped.length - NAMED_SKIPPED_LINES} more lines were too long or too deep to read`);
  return notes;
}
