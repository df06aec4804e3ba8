import { strict as assert } from 'node:assert';
import { agentFileToSmoke } from '../../../../src/features/smoke/agentFile';

describe('the agent file the editor smoke-tests', () => {
  const main = { scheme: 'file', fsPath: '/work/agent/main.py', languageId: 'python' };

  it('takes the explorer or editor-title file first, else the active editor', () => {
    const other = { scheme: 'file', fsPath: '/work/agent/other.py' };
    assert.deepEqual(agentFileToSmoke(other, main), { file: '/work/agent/other.py' });
    assert.deepEqual(agentFileToSmoke(undefined, main), { file: '/work/agent/main.py' });
    assert.deepEqual(agentFileToSmoke(undefined, { scheme: 'file', fsPath: '/work/agent/app', languageId: 'python' }), {
      file: '/work/agent/app',
    });
  });

  it('says what to do when there is no Python file on disk', () => {
    const none = agentFileToSmoke(undefined, undefined);
    assert.ok('problem' in none && /Open the agent file/.test(none.problem));
    const untitled = agentFileToSmoke(undefined, { scheme: 'untitled', fsPath: 'Untitled-1', languageId: 'python' });
    assert.ok('problem' in untitled && /not a file on this machine/.test(untitled.problem));
    const json = agentFileToSmoke({ scheme: 'file', fsPath: '/work/data.jsonl' }, main);
    assert.ok('problem' in json && /not a Python file/.test(json.problem));
  });
});
