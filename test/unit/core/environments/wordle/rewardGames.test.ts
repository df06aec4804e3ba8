import { strict as assert } from 'node:assert';
import { canonicalGames } from '../../../../../src/core/environments/wordle/rewardGames';
import { WORDS } from '../../../../../src/core/environments/wordle/words';
import {
  contradictions,
  isConsistent,
  isValidWord,
  knowledgeFrom,
  markGuess,
  type ScoredGuess,
} from '../../../../../src/core/environments/wordle';

const scoredOf = (guesses: string[], answer: string): ScoredGuess[] => guesses.map((guess) => ({ guess, marks: markGuess(guess, answer) }));

describe('reward: canonical games', () => {
  for (const answer of ['crane', 'eerie', 'fuzzy', 'abbey', 'riser']) {
    describe(`answer '${answer}'`, () => {
      const { games, notes } = canonicalGames(answer);
      const byName = new Map(games.map((g) => [g.name, g]));

      it('has every game the issue names, once', () => {
        const names = [
          'solve@1',
          'solve@2',
          'solve@3',
          'solve@4',
          'solve@5',
          'solve@6',
          'solve@3-raw-text',
          'solve@6-contradicting',
          'loss',
          'loss-contradicting',
          'no-play',
        ];
        assert.deepEqual([...byName.keys()].sort(), names.sort());
        assert.deepEqual(notes, []);
      });

      it('solves on guess n after n−1 wrong guesses consistent with all feedback so far', () => {
        for (let n = 1; n <= 6; n++) {
          const { guesses } = byName.get(`solve@${n}`)!;
          assert.equal(guesses.length, n);
          assert.equal(guesses[n - 1], answer);
          for (let i = 0; i < n - 1; i++) {
            assert.notEqual(guesses[i], answer);
            assert.ok(WORDS.includes(guesses[i]), `${guesses[i]} is a listed word`);
            assert.ok(
              isConsistent(guesses[i], scoredOf(guesses.slice(0, i), answer)),
              `${guesses[i]} is consistent after ${guesses.slice(0, i).join(',')}`,
            );
          }
        }
      });

      it('loses with six distinct consistent wrong guesses', () => {
        const { guesses } = byName.get('loss')!;
        assert.equal(new Set(guesses).size, 6);
        assert.ok(!guesses.includes(answer));
        guesses.forEach((g, i) => assert.ok(isConsistent(g, scoredOf(guesses.slice(0, i), answer))));
      });

      it('contradicting games break known facts from the second guess on', () => {
        for (const name of ['solve@6-contradicting', 'loss-contradicting']) {
          const { guesses } = byName.get(name)!;
          assert.equal(guesses.length, 6);
          for (let i = 1; i < 5; i++) {
            const known = knowledgeFrom(scoredOf(guesses.slice(0, i), answer));
            assert.ok(contradictions(guesses[i], known).length > 0, `${name}: ${guesses[i]} contradicts something`);
          }
        }
        assert.equal(byName.get('solve@6-contradicting')!.guesses[5], answer);
        assert.ok(!byName.get('loss-contradicting')!.guesses.includes(answer));
      });

      it('no-play never makes a valid guess', () => {
        assert.ok(byName.get('no-play')!.guesses.every((g) => !isValidWord(g)));
      });
    });
  }

  it('is deterministic and case-insensitive', () => {
    assert.deepEqual(canonicalGames('CRANE'), canonicalGames('crane'));
  });

  it('says so when an unusual answer runs out of consistent words', () => {
    const { games, notes } = canonicalGames('xylyl');
    assert.equal(notes.length, 1);
    assert.match(notes[0], /before guess 6 for 'xylyl'/);
    assert.equal(games.find((g) => g.name === 'loss')!.guesses.length, 6);
  });

  it('rejects an answer that is not 5 letters', () => {
    assert.throws(() => canonicalGames('cranes'), /The answer 'cranes' is not 5 letters a-z/);
  });

  it('ships a word list of real 5-letter words without duplicates', () => {
    assert.ok(WORDS.length > 900);
    assert.ok(WORDS.every(isValidWord));
    assert.equal(new Set(WORDS).size, WORDS.length);
  });
});
