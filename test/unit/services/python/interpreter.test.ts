import { strict as assert } from 'node:assert';
import { execFileSync } from 'node:child_process';
import { chmodSync, mkdtempSync, readFileSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { interpreterOf } from '../../../../src/services/python/interpreter';

/** A folder holding an executable `name` with this shell body, put first on PATH for the test. */
function onPath(name: string, body: string): { dir: string; restore: () => void } {
  const dir = mkdtempSync(path.join(tmpdir(), 'mtrl-shim-'));
  writeFileSync(path.join(dir, name), `#!/bin/sh\n${body}\n`);
  chmodSync(path.join(dir, name), 0o755);
  const saved = process.env.PATH;
  process.env.PATH = `${dir}${path.delimiter}${saved}`;
  return { dir, restore: () => (process.env.PATH = saved) };
}

describe('the interpreter a Python command names', () => {
  const real = execFileSync('python3', ['-c', 'import sys; print(sys.executable)'], { encoding: 'utf8' }).trim();

  it('is the interpreter itself behind a shim on PATH (as pyenv puts one), asked once', async () => {
    const calls = path.join(mkdtempSync(path.join(tmpdir(), 'mtrl-calls-')), 'calls');
    const shim = onPath('mtrl-test-python-a', `echo x >> '${calls}'\nexec '${real}' "$@"`);
    try {
      assert.equal(await interpreterOf('mtrl-test-python-a'), real);
      assert.equal(await interpreterOf('mtrl-test-python-a'), real);
      assert.equal(readFileSync(calls, 'utf8'), 'x\n', 'the shim ran once for two asks');
    } finally {
      shim.restore();
    }
  });

  it('uses a path as given: a wrapper the user chose stays', async () => {
    const wrapper = onPath('wrapper', `exec '${real}' "$@"`);
    wrapper.restore();
    assert.equal(await interpreterOf(path.join(wrapper.dir, 'wrapper')), path.join(wrapper.dir, 'wrapper'));
  });

  it('keeps the command when it cannot run or does not answer with a path, so running it says why', async () => {
    assert.equal(await interpreterOf('mtrl-no-such-python'), 'mtrl-no-such-python');
    const silent = onPath('mtrl-test-python-b', 'echo not-a-path');
    try {
      assert.equal(await interpreterOf('mtrl-test-python-b'), 'mtrl-test-python-b');
    } finally {
      silent.restore();
    }
  });
});
