// Pure Node: the editor, the `mtrl lint` command line and the unit tests run the real script through it.
import { lintAgentByRegex, readPythonLintOutput, type LintFinding } from '../../core/lint';
import { interpreterOf } from './interpreter';

/** Runs `agent_lint.py` with the given interpreter on the source (stdin); resolves with its stdout, rejects when Python cannot run. */
export async function runPythonLint(
  python: string,
  script: string,
  source: string,
  signal?: AbortSignal,
  timeoutMs = 10_000,
): Promise<string> {
  const interpreter = await interpreterOf(python);
  return new Promise((resolve, reject) => {
    // node:child_process loads with the first run, not at activation.
    // eslint-disable-next-line @typescript-eslint/no-require-imports
    const { spawn } = require('node:child_process') as typeof import('node:child_process');
    const child = spawn(interpreter, ['-I', script], { stdio: ['pipe', 'pipe', 'pipe'], signal, timeout: timeoutMs });
    let out = '';
    let err = '';
    child.stdout.on('data', (chunk: Buffer) => (out += chunk.toString('utf8')));
    child.stderr.on('data', (chunk: Buffer) => (err += chunk.toString('utf8')));
    child.on('error', reject);
    child.on('close', (code) =>
      code === 0 ? resolve(out) : reject(new Error(`${python} exited with ${code}: ${err.trim().split('\n').pop() ?? ''}`)),
    );
    child.stdin.on('error', () => undefined);
    child.stdin.end(source, 'utf8');
  });
}

/** The agent lint's findings for a file's text: Python's ast through `python`, the line patterns when it cannot run or parse. */
export async function agentLintFindings(python: string, script: string, source: string, signal?: AbortSignal): Promise<LintFinding[]> {
  try {
    const result = readPythonLintOutput(await runPythonLint(python, script, source, signal), source);
    return 'findings' in result ? result.findings : lintAgentByRegex(source);
  } catch {
    return lintAgentByRegex(source);
  }
}
