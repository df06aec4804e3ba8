import * as vscode from 'vscode';
import type { DatasetReport, Finding, Span } from '../../core/dataset';

const MAX_DIAGNOSTICS = 1000;

const SEVERITY = {
  error: vscode.DiagnosticSeverity.Error,
  warning: vscode.DiagnosticSeverity.Warning,
  info: vscode.DiagnosticSeverity.Information,
} as const;

/** A finding's 1-based span as a range; a span with no width covers its whole line when the document is at hand. */
function toRange(span: Span, document?: vscode.TextDocument): vscode.Range {
  const start = new vscode.Position(Math.max(0, span.start.line - 1), Math.max(0, span.start.column - 1));
  const end = new vscode.Position(Math.max(0, span.end.line - 1), Math.max(0, span.end.column - 1));
  if (!end.isEqual(start) || !document || start.line >= document.lineCount) return new vscode.Range(start, end);
  return document.lineAt(start.line).range;
}

function toDiagnostic(finding: Finding, uri: vscode.Uri, document?: vscode.TextDocument): vscode.Diagnostic {
  const diagnostic = new vscode.Diagnostic(toRange(finding.span, document), finding.message, SEVERITY[finding.severity]);
  diagnostic.source = 'MTRL';
  diagnostic.code = finding.code;
  if (finding.related?.length) {
    diagnostic.relatedInformation = finding.related.map(
      (r) =>
        new vscode.DiagnosticRelatedInformation(new vscode.Location(r.path ? vscode.Uri.file(r.path) : uri, toRange(r.span)), r.message),
    );
  }
  return diagnostic;
}

/** At most MAX_DIAGNOSTICS diagnostics, plus one summary saying how many more there are. */
export function reportDiagnostics(
  report: DatasetReport,
  extra: Finding[],
  uri: vscode.Uri,
  document?: vscode.TextDocument,
): vscode.Diagnostic[] {
  const findings = [...extra, ...report.findings];
  const shown = findings.slice(0, MAX_DIAGNOSTICS).map((f) => toDiagnostic(f, uri, document));
  const hidden = findings.length - shown.length + report.omitted.error + report.omitted.warning + report.omitted.info;
  if (hidden > 0) {
    const summary = new vscode.Diagnostic(
      new vscode.Range(0, 0, 0, 0),
      `${hidden.toLocaleString('en')} more dataset findings are not shown (the first ${shown.length.toLocaleString('en')} are). Run \`mtrl validate\` for the full list.`,
      vscode.DiagnosticSeverity.Information,
    );
    summary.source = 'MTRL';
    summary.code = 'summary';
    shown.push(summary);
  }
  return shown;
}
