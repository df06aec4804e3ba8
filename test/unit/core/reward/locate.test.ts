import { strict as assert } from 'node:assert';
import { readFileSync } from 'node:fs';
import path from 'node:path';
import { findReward, parseEntrySetting } from '../../../../src/core/reward';

const fixture = (name: string) => readFileSync(path.resolve(__dirname, '../../../fixtures/reward', name), 'utf8');

describe('reward: finding the reward in the text', () => {
  it('finds final_reward of the WordleGame class', () => {
    assert.deepEqual(findReward(fixture('final_design.py')), { line: 81, convention: 'class', name: 'final_reward' });
    assert.equal(findReward(fixture('stub_imports.py'))?.line, 46);
  });

  it('needs guess() in the same class and prefers WordleGame', () => {
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
    assert.equal(findReward(text)?.line, 13);
    assert.equal(findReward(text.split('\n').slice(0, 9).join('\n'))?.line, 8);
    assert.equal(findReward('class Scorer:\n    def final_reward(self):\n        return 0\n'), undefined);
  });

  it('finds a top-level entry function, not a method of the same name', () => {
    assert.deepEqual(findReward(fixture('entry_function.py'), 'score'), { line: 3, convention: 'function', name: 'score' });
    assert.equal(findReward('class A:\n    def score(self):\n        pass\n', 'score'), undefined);
  });

  it('reads mtrl.reward.entry as path:function or function', () => {
    assert.deepEqual(parseEntrySetting('agent/main.py:score'), { path: 'agent/main.py', function: 'score' });
    assert.deepEqual(parseEntrySetting(' score '), { function: 'score' });
    assert.deepEqual(parseEntrySetting('C:\\agent\\main.py:score'), { path: 'C:\\agent\\main.py', function: 'score' });
    assert.equal(parseEntrySetting(''), undefined);
    assert.equal(parseEntrySetting('main.py:'), undefined);
  });
});
