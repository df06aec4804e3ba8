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
      tools: { guess_word: { method: 'guess', arguments: ['guess'], text: 'guess_from_text' } },
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
      'solve@3-raw-text <= solve@3',
      'solve@3-raw-text > solve@4',
    ]);
  });

  it('solve@3-raw-text is solve@3 with every call marked as text; each game declares its outcome, faster solves higher', () => {
    const file = parseScenarioFile(JSON.stringify(wordleRewardScenarios(fixture('final_design.py'), 'r.py'))).file!;
    const byName = new Map(file.scenarios.map((s) => [s.name, s]));
    const guesses = (name: string) => toolCallsOf(byName.get(name)!).map((c) => (c.arguments as { guess: string }).guess);
    assert.deepEqual(guesses('solve@3-raw-text'), guesses('solve@3'));
    assert.ok(toolCallsOf(byName.get('solve@3-raw-text')!).every((c) => c.asText === true));
    assert.ok(toolCallsOf(byName.get('solve@3')!).every((c) => c.asText === undefined));
    const outcome = (name: string) => Math.round(byName.get(name)!.outcome! * 100) / 100;
    assert.deepEqual(
      ['solve@1', 'solve@3', 'solve@3-raw-text', 'solve@6', 'loss', 'no-play'].map(outcome),
      [1.55, 1.35, 1.35, 1.05, -0.5, -1.5],
    );
  });

  it('a class without guess_from_text maps no text method: a call written as text goes to guess()', () => {
    const source = 'class WordleGame:\n    def guess(self, word):\n        pass\n\n    def final_reward(self):\n        return 0\n';
    const file = parseScenarioFile(JSON.stringify(wordleRewardScenarios(source, 'r.py'))).file!;
    assert.deepEqual(file.reward.form === 'class' && file.reward.tools.guess_word, { method: 'guess', arguments: ['guess'] });
  });
});
