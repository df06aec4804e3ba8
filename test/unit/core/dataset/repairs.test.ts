import { strict as assert } from 'node:assert';
import { closeRow, misspelledKey, renameTaskKey } from '../../../../src/core/dataset';

const row = (task: string) => JSON.stringify({ prompt: task });

describe('dataset row repairs', () => {
  it('finds a misspelled answer or id key and renames only that key', () => {
    const text = row('{"prompt": "Guess the 5-letter word", "answr": "riser", "id": "wordle_train_0000"}');
    assert.equal(misspelledKey(text, 'answer'), 'answr');
    const fixed = renameTaskKey(text, 'answr', 'answer')!;
    assert.deepEqual(JSON.parse(JSON.parse(fixed).prompt), { prompt: 'Guess the 5-letter word', answer: 'riser', id: 'wordle_train_0000' });
    assert.equal(misspelledKey(row('{"prompt": "p", "Answer": "riser", "id": "x"}'), 'answer'), 'Answer');
    assert.equal(misspelledKey(row('{"prompt": "p", "anwser": "riser", "id": "x"}'), 'answer'), 'anwser');
    assert.equal(misspelledKey(row('{"prompt": "p", "ID": "x", "answer": "riser"}'), 'id'), 'ID');
  });

  it('guesses nothing when the key is there, unrelated or ambiguous', () => {
    assert.equal(misspelledKey(row('{"prompt": "p", "answer": "riser"}'), 'answer'), undefined);
    assert.equal(misspelledKey(row('{"prompt": "p", "solution": "riser"}'), 'answer'), undefined);
    assert.equal(misspelledKey(row('{"prompt": "p", "answr": "a", "answe": "b"}'), 'answer'), undefined);
    assert.equal(misspelledKey('not json', 'answer'), undefined);
  });

  it('adds a missing closing brace to the row or to the task inside the prompt', () => {
    const whole = row('{"prompt": "Guess", "answer": "riser", "id": "r0"}');
    assert.equal(closeRow(whole.slice(0, -1)), whole, 'outer brace');
    const inner = whole.replace('\\"r0\\"}"', '\\"r0\\""');
    assert.notEqual(inner, whole);
    assert.equal(closeRow(inner), whole, 'inner brace, before the closing quote');
    assert.equal(closeRow(`${whole}\r`), undefined, 'a valid row needs nothing');
    assert.equal(closeRow('{"prompt": [1, 2'), undefined, 'no guess for other damage');
  });
});
