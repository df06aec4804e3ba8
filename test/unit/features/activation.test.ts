import { strict as assert } from 'node:assert';
import { readFileSync } from 'node:fs';
import path from 'node:path';

const manifest = JSON.parse(readFileSync(path.resolve(__dirname, '../../../package.json'), 'utf8')) as { activationEvents: string[] };

describe('activation events', () => {
  // VS Code looks a plain file name up directly, but gives a glob's search 7 s and then does not activate at all: on a
  // loaded machine an agent project whose files only globs name opened with the extension asleep (first-run check, load 20).
  it('an agent project (.bedrock_agentcore.yaml at a folder root) activates by a plain file name, not only by a search', () => {
    const plain = manifest.activationEvents.filter((e) => e.startsWith('workspaceContains:') && !/[*?]/.test(e));
    assert.ok(plain.includes('workspaceContains:.bedrock_agentcore.yaml'), plain.join(', '));
  });

  // A fresh window with a reward open and no project file found in time (#17): the reward's lens must still draw.
  it('opening a Python file (a reward) activates the extension, whose reward lens is registered for Python files', () => {
    assert.ok(manifest.activationEvents.includes('onLanguage:python'), manifest.activationEvents.join(', '));
    const scenarios = readFileSync(path.resolve(__dirname, '../../../src/features/reward/scenarios.ts'), 'utf8');
    assert.match(scenarios, /registerCodeLensProvider\(\{ language: 'python', scheme: 'file' \}/);
  });
});
