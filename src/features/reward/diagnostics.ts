import * as vscode from 'vscode';
import type { PreviewOutcome } from '../../core/reward';

const SOURCE = 'MTRL reward';

function lineRange(document: vscode.TextDocument | undefined, line: number, column?: number): vscode.Range {
  const last = document ? document.lineCount - 1 : line;
  const l = Math.max(0, Math.min(line, last));
  const end = document ? document.lineAt(l).range.end.character : 1000;
  const start = column !== undefined ? Math.max(0, Math.min(column, end)) : 0;
  return new vscode.Range(l, start, l, Math.max(end, start + 1));
}

/**
 * Failing invariants become warnings at the reward; code that cannot run becomes an error at the user's line.
 * `rewardLine` (0-based) is where the lens sits, used when the failure has no line of its own.
 */
export function rewardDiagnostics(
  outcome: PreviewOutcome,
  document: vscode.TextDocument | undefined,
  rewardLine: number | undefined,
): vscode.Diagnostic[] {
  const { result } = outcome;
  if (result.ok) {
    const at = lineRange(document, result.line - 1);
    return result.invariants
      .filter((i) => !i.ok)
      .map((i) => {
        const d = new vscode.Diagnostic(at, `Reward invariant ${i.name} fails: ${i.detail}`, vscode.DiagnosticSeverity.Warning);
        d.source = SOURCE;
        d.code = i.name;
        return d;
      });
  }
  const line = result.line !== undefined ? result.line - 1 : rewardLine;
  if (line === undefined) return [];
  const column = result.column !== undefined ? result.column - 1 : undefined;
  const severity =
    result.error === 'timeout' || result.error === 'cancelled' ? vscode.DiagnosticSeverity.Warning : vscode.DiagnosticSeverity.Error;
  const d = new vscode.Diagnostic(lineRange(document, line, column), `Reward preview: ${result.message}`, severity);
  d.source = SOURCE;
  d.code = result.error;
  return [d];
}
