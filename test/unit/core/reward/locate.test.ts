import { strict as assert } from 'node:assert';
import { readFileSync } from 'node:fs';
import path from 'node:path';
import { findReward, findScoredDefinition, offsetOfPath, parseEntrySetting } from '../../../../src/core/reward';

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

describe('reward scenarios: where the scored reward is written', () => {
  const text = [
    'import re',
    '',
    'class Env:',
    '    def reward(self):',
    '        return 1',
    '',
    'def reward(task, transcript):',
    '    return 0',
  ].join('\n');

  it('finds the top-level function or the class, not a method of the same name', () => {
    assert.equal(findScoredDefinition(text, { form: 'function', function: 'reward' }), 6);
    assert.equal(findScoredDefinition(text, { form: 'class', class: 'Env' }), 2);
    assert.equal(findScoredDefinition(text, { form: 'class', class: 'En' }), undefined);
  });

  it("points a problem's path at its key in the JSON text", () => {
    const json = '{\n  "scenarios": {\n    "ideal": { "tool_calls": [1] }\n  }\n}';
    assert.equal(offsetOfPath(json, 'scenarios.ideal.tool_calls.0'), json.indexOf('"tool_calls"'));
    assert.equal(offsetOfPath(json, 'scenarios.missing'), json.indexOf('"scenarios"'));
    assert.equal(offsetOfPath(json, ''), 0);
  });
});
