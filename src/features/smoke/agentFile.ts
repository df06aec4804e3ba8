// Which agent file the editor's local smoke test runs: no `vscode` here, so the choice is tested in plain Node.

/** A file as the command sees it: the explorer's or the editor title's URI, or the active editor's document. */
export interface FileLike {
  scheme: string;
  fsPath: string;
  languageId?: string;
}

/** The Python file to smoke-test, or the sentence that says why there is none. */
export function agentFileToSmoke(target: FileLike | undefined, active: FileLike | undefined): { file: string } | { problem: string } {
  const file = target ?? active;
  if (!file)
    return {
      problem: 'Open the agent file (the Python file with @app.entrypoint) or pick it in the Explorer, then run the smoke test again.',
    };
  if (file.scheme !== 'file')
    return { problem: `${file.fsPath} is not a file on this machine: the local smoke test runs an agent file on disk.` };
  if (!/\.py$/i.test(file.fsPath) && file.languageId !== 'python')
    return { problem: `${file.fsPath} is not a Python file: the local smoke test runs an agent's Python entrypoint.` };
  return { file: file.fsPath };
}
