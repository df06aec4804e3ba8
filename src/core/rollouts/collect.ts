import { MAX_GUESSES, type ParsedTurn } from '../wordle';
import { parseRolloutLine } from './parse';
import { MAX_RECORD_TURNS, normalizeTurns, type Rollout } from './record';
import { LineSplitter, MAX_LINE_CHARS } from '../text/lines';

/** A game rebuilt from feedback lines, waiting for its `UpdateReward` line. */
interface RebuiltGame {
  turns: ParsedTurn[];
  answer?: string;
  solved: boolean;
}

/**
 * Turns log lines into rollouts, in order. Records are taken as they are; without records, games are rebuilt
 * from tool feedback lines (per AgentCore session when the lines say) and paired with the next `UpdateReward`.
 */
export class RolloutCollector {
  private ready: Rollout[] = [];
  private records = 0;
  private readonly open = new Map<string, RebuiltGame>();
  private readonly finished: { session: string; game: RebuiltGame }[] = [];
  private rebuiltCount = 0;
  /** Lines read so far, for progress messages. */
  lines = 0;

  /** Adds one log line (or a message with several lines); `time` (epoch ms of its log event) dates the rollouts it completes. */
  add(text: string, time?: number): void {
    const before = this.ready.length;
    if (text.includes('\n')) {
      for (const line of text.split('\n')) this.addLine(line);
    } else this.addLine(text);
    if (time !== undefined) for (let i = before; i < this.ready.length; i++) this.ready[i].time ??= time;
  }

  /** Adds a rollout read whole from a source other than log lines (an MLflow trace): it counts as a record. */
  addRollout(rollout: Rollout): void {
    this.records++;
    this.ready.push(rollout);
  }

  private addLine(line: string): void {
    this.lines++;
    for (const item of parseRolloutLine(line.endsWith('\r') ? line.slice(0, -1) : line)) {
      if (item.kind === 'record') {
        this.records++;
        if (!item.rollout.trajectory_id) item.rollout.trajectory_id = `record-${this.records}`;
        this.ready.push(item.rollout);
      } else if (this.records > 0) {
        // Records are the complete story; SDK and feedback lines would only duplicate them.
        continue;
      } else if (item.kind === 'turn') this.addTurn(item.turn, item.session ?? '');
      else if (item.kind === 'loss') this.endGame(item.session ?? '', item.answer);
      else this.addReward(item.trajectoryId, item.reward, item.session ?? '');
    }
  }

  private addTurn(turn: ParsedTurn, session: string): void {
    let game = this.open.get(session);
    if (game && turn.number === 1 && game.turns.some((t) => t.valid)) {
      this.endGame(session);
      game = undefined;
    }
    if (!game) {
      this.flushFinished(session);
      game = { turns: [], solved: false };
      this.open.set(session, game);
    }
    game.turns.push(turn);
    if (turn.marks === 'GGGGG') {
      game.solved = true;
      game.answer = turn.guess;
      this.endGame(session);
    } else if (turn.number === MAX_GUESSES || game.turns.length >= MAX_RECORD_TURNS) this.endGame(session);
  }

  private endGame(session: string, answer?: string): void {
    const game = this.open.get(session);
    if (!game) {
      // The loss line follows the sixth guess, which already ended the game.
      const last = [...this.finished].reverse().find((f) => f.session === session);
      if (last && answer) last.game.answer ??= answer;
      return;
    }
    if (answer) game.answer = answer;
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

  private addReward(trajectoryId: string, reward: number, session: string): void {
    let index = this.finished.findIndex((f) => f.session === session);
    if (index < 0) index = this.finished.length ? 0 : -1;
    let game: RebuiltGame | undefined;
    if (index >= 0) game = this.finished.splice(index, 1)[0].game;
    else {
      // The agent can return its reward before a last loss line arrives: take the open game of that session.
      game = this.open.get(session);
      this.open.delete(session);
    }
    this.ready.push(this.rebuild(game ?? { turns: [], solved: false }, trajectoryId, reward));
  }

  private rebuild(game: RebuiltGame, trajectoryId?: string, reward?: number): Rollout {
    const rollout: Rollout = {
      trajectory_id: trajectoryId ?? `rebuilt-${++this.rebuiltCount}`,
      answer: game.answer,
      turns: normalizeTurns(game.turns, game.answer),
      solved: game.solved,
      rebuilt: true,
    };
    // Marks read from the feedback text are authoritative even when the answer is unknown.
    game.turns.forEach((t, i) => {
      if (t.marks && rollout.turns[i].valid) rollout.turns[i].marks = t.marks;
    });
    if (reward !== undefined) rollout.reward = reward;
    return rollout;
  }

  /** Rollouts completed since the last call. */
  take(): Rollout[] {
    const out = this.ready;
    this.ready = [];
    return out;
  }

  /** Ends the input: games still waiting become rollouts (without a reward) and are returned with the rest. */
  finish(): Rollout[] {
    if (this.records === 0) {
      for (const session of [...this.open.keys()]) this.endGame(session);
      for (const { game } of this.finished.splice(0)) if (game.turns.length) this.ready.push(this.rebuild(game));
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

/** A line too long to read, for the summary: which one and how long. */
export interface SkippedLine {
  line: number;
  chars: number;
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
    .map(
      ({ line, chars }) =>
        `line ${line} (${chars.toLocaleString('en')} characters) is longer than ${MAX_LINE_CHARS / 1024 / 1024} M characters and was not read`,
    );
  if (skipped.length > NAMED_SKIPPED_LINES) notes.push(`${skipped.length - NAMED_SKIPPED_LINES} more lines were too long to read`);
  return notes;
}

/** Every rollout in a stream of chunks, read as it arrives; lines too long to read are listed in `skipped`. */
export async function collectRollouts(
  chunks: AsyncIterable<string | Uint8Array> | Iterable<string | Uint8Array>,
  signal?: AbortSignal,
  skipped: SkippedLine[] = [],
): Promise<Rollout[]> {
  const collector = new RolloutCollector();
  const rollouts: Rollout[] = [];
  for await (const line of linesOf(chunks, (n, chars) => skipped.push({ line: n, chars }))) {
    if (signal?.aborted) throw signal.reason ?? new Error('Cancelled');
    collector.add(line);
    if (collector.lines % 4096 === 0) rollouts.push(...collector.take());
  }
  for (const r of collector.finish()) rollouts.push(r);
  return rollouts;
}
