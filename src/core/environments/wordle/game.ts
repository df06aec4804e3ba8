import { renderFeedback, renderInvalid, renderLoss, renderRepeat } from './feedback';
import { knowledgeFrom, type Knowledge, type ScoredGuess } from './knowledge';
import { isValidWord, markGuess, MAX_GUESSES } from './marks';

/** Tool calls allowed per game, valid or not. */
const MAX_TOOL_CALLS = 12;

type GameStatus = 'playing' | 'solved' | 'lost';

export interface PlayedTurn {
  guess: string;
  marks?: string;
  valid: boolean;
  repeated?: boolean;
  feedback: string;
}

/** A Wordle game as the reference environment plays it: invalid and repeated input cost a tool call, not a guess. */
export class WordleGame {
  readonly answer: string;
  readonly turns: PlayedTurn[] = [];
  private readonly scored: ScoredGuess[] = [];

  /** `feedback: false` leaves each turn's text empty: a game played for its reward alone (the emulator plays a million). */
  constructor(
    answer: string,
    private readonly options: { feedback: boolean } = { feedback: true },
  ) {
    if (!isValidWord(answer)) throw new Error(`Answer '${answer}' is not 5 letters a-z`);
    this.answer = answer.toLowerCase();
  }

  get status(): GameStatus {
    if (this.scored[this.scored.length - 1]?.marks === 'GGGGG') return 'solved';
    return this.gameOver() ? 'lost' : 'playing';
  }

  private gameOver(): boolean {
    const last = this.scored[this.scored.length - 1];
    return last?.marks === 'GGGGG' || this.scored.length >= MAX_GUESSES || this.turns.length >= MAX_TOOL_CALLS;
  }

  get knowledge(): Knowledge {
    return knowledgeFrom(this.scored);
  }

  get validGuesses(): number {
    return this.scored.length;
  }

  /** Plays one input and returns the feedback text the model would see. */
  guess(input: string): PlayedTurn {
    if (this.status !== 'playing') throw new Error('The game is over');
    const word = input.trim().toLowerCase();
    const told = this.options.feedback;
    let turn: PlayedTurn;
    if (!isValidWord(word)) {
      turn = { guess: input, valid: false, feedback: told ? renderInvalid(input, MAX_GUESSES - this.scored.length) : '' };
    } else if (this.scored.some((s) => s.guess === word)) {
      turn = { guess: word, valid: false, repeated: true, feedback: told ? renderRepeat(word) : '' };
    } else {
      const marks = markGuess(word, this.answer);
      this.scored.push({ guess: word, marks });
      turn = { guess: word, marks, valid: true, feedback: told ? renderFeedback(this.scored.length, word, marks, this.knowledge) : '' };
    }
    this.turns.push(turn);
    if (told && turn.marks !== 'GGGGG' && this.gameOver()) turn.feedback += `\n${renderLoss(this.answer)}`;
    return turn;
  }
}
