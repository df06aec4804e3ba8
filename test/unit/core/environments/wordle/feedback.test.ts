import { strict as assert } from 'node:assert';
import {
  knowledgeFrom,
  markGuess,
  parseFeedback,
  parseFeedbackLine,
  renderFeedback,
  renderInvalid,
  renderRepeat,
  WordleGame,
} from '../../../../../src/core/environments/wordle';

describe('wordle feedback text', () => {
  it('renders the reference example exactly', () => {
    const reference = [
      'Guess 1/6: SLATE -> S=gray, L=green, A=green, T=gray, E=green',
      'Current Knowledge:',
      '- Correct Position (Green): _ L A _ E',
      '- In Word, Wrong Position (Yellow): None',
      '- Not in Word (Gray): S, T',
      '- Words Already Guessed: SLATE',
      '- Guesses Remaining: 5',
    ].join('\n');
    const answer = 'blame';
    assert.equal(markGuess('slate', answer), 'XGGXG');
    const k = knowledgeFrom([{ guess: 'slate', marks: 'XGGXG' }]);
    assert.equal(renderFeedback(1, 'slate', 'XGGXG', k), reference);
  });

  it('renders the solve line with the em dash and no knowledge block', () => {
    const k = knowledgeFrom([{ guess: 'paste', marks: 'GGGGG' }]);
    assert.equal(renderFeedback(4, 'paste', 'GGGGG', k), 'Guess 4/6: PASTE — all green. Correct, you solved it!');
  });

  it('lists yellows not yet placed and keeps surplus-copy grays out of "not in word"', () => {
    const guesses = [
      { guess: 'eerie', marks: markGuess('eerie', 'crane') },
      { guess: 'react', marks: markGuess('react', 'crane') },
    ];
    const k = knowledgeFrom(guesses);
    assert.deepEqual(k.greens, [null, null, 'a', null, 'e']);
    assert.deepEqual(k.yellows, ['r', 'c']);
    assert.deepEqual(k.grays.sort(), ['i', 't']);
    assert.equal(k.guessesRemaining, 4);
  });

  it('renders invalid and repeated input in the reference wording', () => {
    assert.match(renderInvalid('xx', 5), /^Invalid guess 'xx': must be exactly 5 letters \(a-z only\)\./);
    assert.match(renderRepeat('slate'), /^You already guessed SLATE \(repetition penalty\)\./);
  });

  it('parses a whole game back into the turns that produced it', () => {
    const game = new WordleGame('crane');
    const inputs = ['slate', 'xx', 'slate', 'brake', 'crane'];
    const text = inputs.map((i) => game.guess(i).feedback).join('\n');
    assert.equal(game.status, 'solved');
    assert.deepEqual(parseFeedback(text), [
      { guess: 'slate', marks: 'XXGXG', valid: true, number: 1 },
      { guess: 'xx', valid: false },
      { guess: 'slate', valid: false, repeated: true },
      { guess: 'brake', marks: 'XGGXG', valid: true, number: 2 },
      { guess: 'crane', marks: 'GGGGG', valid: true, number: 3 },
    ]);
  });

  it('parses lines behind a log prefix and ignores lines without a turn', () => {
    const line = '2026-11-29T10:00:00Z INFO Guess 2/6: TRACE -> T=gray, R=green, A=green, C=yellow, E=green';
    assert.deepEqual(parseFeedbackLine(line), { guess: 'trace', marks: 'XGGYG', valid: true, number: 2 });
    assert.equal(parseFeedbackLine('- Guesses Remaining: 5'), undefined);
    assert.equal(parseFeedbackLine('Guess 2/6: TRACE -> T=grey'), undefined);
  });

  it('ends a game after six wrong guesses and says the word', () => {
    const game = new WordleGame('crane');
    let last = '';
    for (const w of ['pudgy', 'moist', 'blitz', 'fjord', 'whelk', 'vying']) last = game.guess(w).feedback;
    assert.equal(game.status, 'lost');
    assert.match(last, /Guesses Remaining: 0\nOut of guesses\. The word was CRANE\./);
    assert.throws(() => game.guess('crane'), /over/);
  });

  it('ends a game after twelve tool calls even with guesses left', () => {
    const game = new WordleGame('crane');
    for (let i = 0; i < 12; i++) game.guess('no');
    assert.equal(game.status, 'lost');
    assert.equal(game.validGuesses, 0);
  });

  it('refuses an answer that is not five letters', () => {
    assert.throws(() => new WordleGame('cranes'), /not 5 letters/);
  });
});
