import { strict as assert } from 'node:assert';
import { readFileSync } from 'node:fs';
import path from 'node:path';
import { parseScenarioFile, toolCallsOf } from '../../../../../src/core/reward';
import { canonicalGames } from '../../../../../src/core/environments/wordle/rewardGames';
import { wordleRewardClass, wordleRewardScenarios } from '../../../../../src/core/environments/wordle/rewardScenarios';

const fixture = (name: string) => readFileSync(path.resolve(__dirname, '../../../../fixtures/reward', name), 'utf8');

describe('wordle pack: the canonical games as reward scenarios', () => {
  it('finds the reward class: guess() and final_reward() in one class, WordleGame first', () => {
    const text = [
      'class Scorer:',
      '    def final_reward(self):',
      '        return 0',
      '',
      'x = 1',
      '',
      'class Other:',
      '    def guess(self, w): ...',
      '    def final_reward(self): ...',
      '',
      'class WordleGame:',
      '    def guess(self, w): ...',
      '    # comment',
      '    def final_reward(self): ...',
    ].join('\n');
    assert.equal(wordleRewardClass(text), 'WordleGame');
    assert.equal(wordleRewardClass(text.split('\n').slice(0, 9).join('\n')), 'Other');
    assert.equal(wordleRewardClass('class Scorer:\n    def final_reward(self):\n        return 0\n'), undefined);
    assert.equal(wordleRewardClass(fixture('final_design.py')), 'WordleGame');
  });

  it('is a valid scenario file: the class replayed with guess_word → guess(guess), built from the answer, scored by final_reward()', () => {
    const offered = wordleRewardScenarios(fixture('final_design.py'), 'final_design.py');
    const parsed = parseScenarioFile(JSON.stringify(offered));
    assert.deepEqual(parsed.problems, []);
    const file = parsed.file!;
    assert.deepEqual(file.reward, {
      form: 'class',
      file: 'final_design.py',
      class: 'WordleGame',
      init: { answer: 'answer' },
      tools: { guess_word: { method: 'guess', arguments: ['guess'] } },
      score: 'final_reward',
    });
    assert.equal(file.scenarios[0].task.row?.answer, 'crane');
  });

  it('each canonical game is a scenario of guess_word calls with their feedback; solves are finished, the rest not', () => {
    const file = parseScenarioFile(JSON.stringify(wordleRewardScenarios(fixture('final_design.py'), 'r.py'))).file!;
    const { games } = canonicalGames('crane');
    assert.deepEqual(
      file.scenarios.map((s) => s.name),
      games.map((g) => g.name),
    );
    for (const [i, s] of file.scenarios.entries()) {
      assert.deepEqual(
        toolCallsOf(s).map((c) => (c.arguments as { guess: string }).guess),
        games[i].guesses,
      );
      assert.equal(s.finished, games[i].kind === 'solve');
    }
    assert.match(String(toolCallsOf(file.scenarios[0])[0].result), /CRANE.*solved/i);
  });

  it("the pack's invariants are the expectations: faster solves win, solves beat losses, losses are negative, no-play is worst", () => {
    const file = parseScenarioFile(JSON.stringify(wordleRewardScenarios(fixture('final_design.py'), 'r.py'))).file!;
    assert.deepEqual(file.expect, [
      'solve@1 > solve@2',
      'solve@2 > solve@3',
      'solve@3 > solve@4',
      'solve@4 > solve@5',
      'solve@5 > solve@6',
      'solve@6 > loss',
      'solve@6 > loss-contradicting',
      'solve@6-contradicting > loss',
      'solve@6-contradicting > loss-contradicting',
      'loss < 0',
      'loss-contradicting < 0',
      'no-play < loss',
      'no-play < loss-contradicting',
    ]);
  });
});
