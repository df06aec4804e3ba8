import { strict as assert } from 'node:assert';
import { findScoredDefinition, offsetOfPath } from '../../../../src/core/reward';

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
