import { strict as assert } from 'node:assert';
import { readFileSync } from 'node:fs';
import path from 'node:path';
import { agentsFromJson, agentsFromYaml, runtimeNameFromId } from '../../../../src/core/agentcore/projectFiles';

describe('agent project files', () => {
  it('reads the agent name and entrypoint of a starter-toolkit .bedrock_agentcore.yaml', () => {
    const text = readFileSync(path.resolve(__dirname, '../../../fixtures/workspace/launch/.bedrock_agentcore.yaml'), 'utf8');
    assert.deepEqual(agentsFromYaml(text), [{ runtimeName: 'wordle_agent', entrypoint: 'main.py' }]);
  });

  it('reads several agents and falls back to the key and main.py', () => {
    const text = [
      'agents:',
      '  first:',
      '    entrypoint: src/agent.py',
      '  second:',
      '    name: "other_agent"',
      '    aws:',
      '      name: not-this-one',
      'default_agent: first',
    ].join('\n');
    assert.deepEqual(agentsFromYaml(text), [
      { runtimeName: 'first', entrypoint: 'src/agent.py' },
      { runtimeName: 'other_agent', entrypoint: 'main.py' },
    ]);
  });

  it('reads agentcore.json wherever the name and entrypoint are nested', () => {
    assert.deepEqual(
      agentsFromJson(JSON.stringify({ agents: [{ name: 'wordle_agent', entrypoint: 'main.py', runtime: { memory: 1 } }] })),
      [{ runtimeName: 'wordle_agent', entrypoint: 'main.py' }],
    );
    assert.deepEqual(agentsFromJson('not json'), []);
  });

  it('strips the 10-character suffix of a runtime id', () => {
    assert.equal(runtimeNameFromId('wordle_agent-AbCdEf1234'), 'wordle_agent');
    assert.equal(runtimeNameFromId('plain'), 'plain');
  });
});
