// Pure Node: which interpreter a command such as `python3` names, asked once.
import path from 'node:path';

/** Answers asked so far, by command. */
const answers = new Map<string, Promise<string>>();

/**
 * The interpreter a bare command such as `python3` runs (`sys.executable`), asked once. pyenv's `python3` is a shell
 * script in front of the interpreter that costs 0.5–1.5 s per start, paid again by every lint, reward preview and
 * rollout; the interpreter itself starts in a twentieth of that. A path is used as given (a wrapper script the user
 * chose stays theirs). When Python cannot be asked (not installed, no answer in time), the command is kept: running
 * it then says why, as before.
 */
export function interpreterOf(command: string, timeoutMs = 15_000): Promise<string> {
  if (/[\\/]/.test(command)) return Promise.resolve(command);
  let answer = answers.get(command);
  if (!answer) {
    answer = new Promise<string>((resolve) => {
      // node:child_process loads with the first run, not at activation.
      // eslint-disable-next-line @typescript-eslint/no-require-imports
      const { execFile } = require('node:child_process') as typeof import('node:child_process');
      execFile(
        command,
        ['-c', 'import sys; print(sys.executable)'],
        { timeout: timeoutMs, encoding: 'utf8', windowsHide: true },
        (error, stdout) => {
          const executable = String(stdout ?? '').trim();
          resolve(!error && path.isAbsolute(executable) ? executable : command);
        },
      );
    });
    answers.set(command, answer);
  }
  return answer;
}
