import * as vscode from 'vscode';
import type { LintEngine, LintFinding, LintSeverity, TextRange } from '../../core/lint';

const SEVERITY: Record<LintSeverity, vscode.DiagnosticSeverity> = {
  error: vscode.DiagnosticSeverity.Error,
  warning: vscode.DiagnosticSeverity.Warning,
  info: vscode.DiagnosticSeverity.Information,
};

function toRange(range: TextRange): vscode.Range {
  return new vscode.Range(range.start.line, range.start.character, range.end.line, range.end.character);
}

/** Diagnostics of both lints, with the findings kept so quick fixes can find their edits. */
export class LintDiagnostics implements vscode.Disposable {
  private readonly collection = vscode.languages.createDiagnosticCollection('mtrl-lint');
  private readonly findings = new Map<string, { finding: LintFinding; diagnostic: vscode.Diagnostic }[]>();

  set(uri: vscode.Uri, engine: LintEngine, findings: LintFinding[]): void {
    const entries = findings.map((finding) => {
      const diagnostic = new vscode.Diagnostic(toRange(finding.range), finding.message, SEVERITY[finding.severity]);
      // Says which parser ran: the ast lint sees more than the regex fallback.
      diagnostic.source = engine === 'json' ? 'MTRL (role lint)' : `MTRL (${engine})`;
      diagnostic.code = finding.rule;
      return { finding, diagnostic };
    });
    this.findings.set(uri.toString(), entries);
    this.collection.set(
      uri,
      entries.map((e) => e.diagnostic),
    );
  }

  clear(uri: vscode.Uri): void {
    this.findings.delete(uri.toString());
    this.collection.delete(uri);
  }

  /** Findings with a fix whose diagnostic touches the range. */
  fixable(uri: vscode.Uri, range: vscode.Range): { finding: LintFinding; diagnostic: vscode.Diagnostic }[] {
    return (this.findings.get(uri.toString()) ?? []).filter((e) => e.finding.fix && e.diagnostic.range.intersection(range));
  }

  dispose(): void {
    this.collection.dispose();
  }
}

/** Quick fixes for the lint findings: each one an undoable WorkspaceEdit. */
export class LintFixes implements vscode.CodeActionProvider {
  static readonly kinds = [vscode.CodeActionKind.QuickFix];

  constructor(private readonly diagnostics: LintDiagnostics) {}

  provideCodeActions(document: vscode.TextDocument, range: vscode.Range | vscode.Selection): vscode.CodeAction[] {
    return this.diagnostics.fixable(document.uri, range).map(({ finding, diagnostic }) => {
      const action = new vscode.CodeAction(finding.fix!.title, vscode.CodeActionKind.QuickFix);
      action.edit = new vscode.WorkspaceEdit();
      for (const edit of finding.fix!.edits) action.edit.replace(document.uri, toRange(edit.range), edit.newText);
      action.diagnostics = [diagnostic];
      action.isPreferred = true;
      return action;
    });
  }
}
