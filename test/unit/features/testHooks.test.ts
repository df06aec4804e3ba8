import { strict as assert } from 'node:assert';
import { readFileSync } from 'node:fs';
import path from 'node:path';

const root = path.resolve(__dirname, '../../..');

describe('test-only hooks', () => {
  it('the manifest contributes no mtrl.test.* command, menu or activation event (the harness registers them by environment)', () => {
    const manifest = readFileSync(path.join(root, 'package.json'), 'utf8');
    assert.doesNotMatch(manifest, /mtrl\.test\./);
  });
});
