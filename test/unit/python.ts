import { execFileSync } from 'node:child_process';

/** The interpreter behind `python3`, not a version-manager shim that takes seconds to start on a busy machine. */
export const python = execFileSync('python3', ['-c', 'import sys; print(sys.executable)'], { encoding: 'utf8' }).trim();
