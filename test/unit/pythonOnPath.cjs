// `python3` for every process the unit tests start is the interpreter itself, not a version manager's shim in front of
// it: pyenv's shim is a bash script that costs ~0.45 s per start here (the interpreter 0.07 s), and a signal check starts
// one per rollout. The same interpreter runs; the shim's lookup is done once, here, instead of once per process.
const { execFileSync } = require('node:child_process');
const { accessSync, constants, realpathSync } = require('node:fs');
const path = require('node:path');

const RESOLVED = 'MTRL_TEST_PYTHON_ON_PATH';

/** The first `python3` on PATH, as a shell would find it. */
function onPath() {
  for (const dir of (process.env.PATH ?? '').split(path.delimiter).filter(Boolean)) {
    const file = path.join(dir, 'python3');
    try {
      accessSync(file, constants.X_OK);
      return file;
    } catch {
      // Not in this folder.
    }
  }
  return undefined;
}

// Mocha's main process resolves it; its workers inherit the environment and find it done.
if (!process.env[RESOLVED]) {
  process.env[RESOLVED] = '1';
  const found = onPath();
  try {
    const executable = found && execFileSync(found, ['-c', 'import sys; print(sys.executable)'], { encoding: 'utf8' }).trim();
    // Only a shim differs from the interpreter it runs; its folder first on PATH is what `pyenv exec` itself does.
    if (executable && realpathSync(executable) !== realpathSync(found))
      process.env.PATH = `${path.dirname(executable)}${path.delimiter}${process.env.PATH}`;
  } catch {
    // A python3 that cannot run: the tests that need one say so themselves.
  }
}
