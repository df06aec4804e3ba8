import * as vscode from 'vscode';
import {
  isTrustPolicy,
  lintAgentByRegex,
  lintTrustPolicy,
  looksLikeJobRoleFile,
  readPythonLintOutput,
  referencedJsonFiles,
  usesRftHandler,
  type LintEngine,
  type LintFinding,
} from '../../core/lint';
import { findPython } from '../python';
import type { Services } from '../services';
import { LintDiagnostics, LintFixes } from './diagnostics';
import { runPythonLint } from '../../services/python/agentLint';
import { setting } from '../settings';

/** The agent lint of Python files that use sagemaker_rft_handler and the role lint of job-role trust policies, on open and save. */
export function register(services: Services): void {
  const diagnostics = new LintDiagnostics();
  const script = services.context.asAbsolutePath('dist/python/agent_lint.py');
  const jobRoleFiles = new JobRoleReferences();
  const pending = new Map<string, AbortController>();
  let warnedNoPython = false;

  const enabled = (document: vscode.TextDocument) => setting('lint.enabled', document.uri);

  async function lintAgent(document: vscode.TextDocument, signal: AbortSignal): Promise<{ engine: LintEngine; findings: LintFinding[] }> {
    const text = document.getText();
    // Restricted Mode: never start an interpreter the workspace may have chosen.
    if (!vscode.workspace.isTrusted) return { engine: 'regex', findings: lintAgentByRegex(text) };
    const python = await findPython(document.uri);
    try {
      const result = readPythonLintOutput(await runPythonLint(python.path, script, text, signal), text);
      // A file mid-edit may not parse: the line patterns still see most problems.
      if ('findings' in result) return { engine: 'python ast', findings: result.findings };
      services.output.debug(`Agent lint: ${document.uri.fsPath} does not parse (${result.syntaxError}); using the regex lint.`);
    } catch (error) {
      if (signal.aborted) throw error;
      const message = `Agent lint: could not run ${python.path} (${error instanceof Error ? error.message : String(error)}); using the regex lint, which sees fewer problems. Set mtrl.python.path to a Python 3 interpreter.`;
      services.output.warn(message);
      if (!warnedNoPython) {
        warnedNoPython = true;
        void vscode.window.showWarningMessage(message);
      }
    }
    return { engine: 'regex', findings: lintAgentByRegex(text) };
  }

  const isJson = (document: vscode.TextDocument) => document.languageId === 'json' || document.languageId === 'jsonc';
  const fileOrUntitled = (document: vscode.TextDocument) => document.uri.scheme === 'file' || document.uri.scheme === 'untitled';

  async function lint(document: vscode.TextDocument): Promise<void> {
    if (!fileOrUntitled(document)) return;
    if (!enabled(document)) return diagnostics.clear(document.uri);
    if (document.languageId === 'python') {
      if (!usesRftHandler(document.getText())) return diagnostics.clear(document.uri);
      const key = document.uri.toString();
      pending.get(key)?.abort();
      const controller = new AbortController();
      pending.set(key, controller);
      try {
        const { engine, findings } = await lintAgent(document, controller.signal);
        if (!controller.signal.aborted) diagnostics.set(document.uri, engine, findings);
      } catch {
        // Superseded by a newer lint of the same file.
      } finally {
        if (pending.get(key) === controller) pending.delete(key);
      }
      return;
    }
    if (isJson(document)) {
      if (document.fileName.endsWith('.mtrl.json')) {
        jobRoleFiles.update(document.uri, document.getText());
        // The job file may name other open files as its role: check them again (only them: two open job files must
        // not set each other off without end).
        for (const other of vscode.workspace.textDocuments)
          if (other !== document && isJson(other) && fileOrUntitled(other) && enabled(other)) lintRole(other);
      }
      lintRole(document);
    }
  }

  /** A JSON file that is a job's role (by its name, or named by a job file) gets the trust-policy lint. */
  function lintRole(document: vscode.TextDocument): void {
    if (!looksLikeJobRoleFile(document.fileName) && !jobRoleFiles.has(document.uri)) return diagnostics.clear(document.uri);
    const text = document.getText();
    if (!isTrustPolicy(text)) return diagnostics.clear(document.uri);
    diagnostics.set(document.uri, 'json', lintTrustPolicy(text));
  }

  services.context.subscriptions.push(
    diagnostics,
    vscode.languages.registerCodeActionsProvider(
      [{ language: 'python' }, { language: 'json' }, { language: 'jsonc' }],
      new LintFixes(diagnostics),
      { providedCodeActionKinds: LintFixes.kinds },
    ),
    vscode.workspace.onDidOpenTextDocument((d) => void lint(d)),
    vscode.workspace.onDidSaveTextDocument((d) => void lint(d)),
    vscode.workspace.onDidCloseTextDocument((d) => diagnostics.clear(d.uri)),
    vscode.workspace.onDidGrantWorkspaceTrust(() => vscode.workspace.textDocuments.forEach((d) => void lint(d))),
    services.settings.onDidChange(['lint', 'python'], () => vscode.workspace.textDocuments.forEach((d) => void lint(d))),
  );
  void jobRoleFiles.scan().then(() => vscode.workspace.textDocuments.forEach((d) => void lint(d)));
}

/** Trust policy files that a `*.mtrl.json` job file mentions by path, whatever their name. */
class JobRoleReferences {
  private readonly byJobFile = new Map<string, Set<string>>();

  async scan(): Promise<void> {
    for (const uri of await vscode.workspace.findFiles('**/*.mtrl.json', '**/node_modules/**', 200)) {
      try {
        this.update(uri, new TextDecoder().decode(await vscode.workspace.fs.readFile(uri)));
      } catch {
        // An unreadable job file references nothing.
      }
    }
  }

  update(jobFile: vscode.Uri, text: string): void {
    const targets = referencedJsonFiles(text).map((p) => vscode.Uri.joinPath(jobFile, '..', p).toString());
    this.byJobFile.set(jobFile.toString(), new Set(targets));
  }

  has(uri: vscode.Uri): boolean {
    return [...this.byJobFile.values()].some((set) => set.has(uri.toString()));
  }
}
