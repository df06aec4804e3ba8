import * as vscode from 'vscode';
import { parseRuntimeArn, smokeReportMarkdown, type SmokeResult } from '../../core/smoke';

export const SMOKE_REPORT_SCHEME = 'mtrl-smoke';

/** Smoke reports as read-only virtual Markdown documents, one per runtime, shown in the Markdown preview (theme-aware for free). */
export class SmokeReportDocuments implements vscode.TextDocumentContentProvider {
  private readonly reports = new Map<string, string>();
  private readonly changed = new vscode.EventEmitter<vscode.Uri>();
  readonly onDidChange = this.changed.event;

  static uriFor(runtimeArn: string): vscode.Uri {
    const id = parseRuntimeArn(runtimeArn)?.runtimeId ?? 'runtime';
    return vscode.Uri.from({ scheme: SMOKE_REPORT_SCHEME, path: `/Smoke test ${id}.md`, query: runtimeArn });
  }

  set(result: SmokeResult): vscode.Uri {
    const uri = result.local
      ? vscode.Uri.from({
          scheme: SMOKE_REPORT_SCHEME,
          path: `/Smoke test ${result.local.agentFile.split(/[\\/]/).pop()}.md`,
          query: result.local.agentFile,
        })
      : SmokeReportDocuments.uriFor(result.runtimeArn);
    this.reports.set(uri.toString(), smokeReportMarkdown(result));
    this.changed.fire(uri);
    return uri;
  }

  provideTextDocumentContent(uri: vscode.Uri): string {
    return (
      this.reports.get(uri.toString()) ??
      '# Smoke test\n\nNo smoke test has run for this runtime in this window. Run **MTRL: Smoke Test Agent Runtime**.\n'
    );
  }

  dispose(): void {
    this.changed.dispose();
  }
}

/** Opens the report in the Markdown preview; falls back to the plain document when the preview is unavailable. */
export async function showSmokeReport(uri: vscode.Uri, output: vscode.LogOutputChannel): Promise<void> {
  try {
    await vscode.commands.executeCommand('markdown.showPreview', uri);
  } catch (error) {
    output.warn(`Markdown preview unavailable (${error instanceof Error ? error.message : String(error)}); showing the report as text.`);
    await vscode.window.showTextDocument(uri, { preview: true });
  }
}
