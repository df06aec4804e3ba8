import * as vscode from 'vscode';
import { estimateText, parseSweep, sweepEstimate } from '../../core/evaluation/sweep';
import type { SweepQueue } from './sweepQueue';

/** Above a sweep file: its estimate and Start/Pause/Resume/Cancel/Compare, or its problems. */
export class SweepLensProvider implements vscode.CodeLensProvider {
  private readonly changed = new vscode.EventEmitter<void>();
  private readonly cache = new Map<string, { version: number; parsed: ReturnType<typeof parseSweep> }>();
  readonly onDidChangeCodeLenses = this.changed.event;

  constructor(private readonly queue: SweepQueue) {
    queue.onDidChange(() => this.changed.fire());
  }

  provideCodeLenses(document: vscode.TextDocument): vscode.CodeLens[] {
    const top = new vscode.Range(0, 0, 0, 0);
    const parsed = this.parsed(document);
    if (!parsed.sweep)
      return [
        new vscode.CodeLens(top, {
          title: `$(warning) ${parsed.problems.length} problem${parsed.problems.length === 1 ? '' : 's'}: ${parsed.problems[0].message}`,
          command: 'workbench.actions.view.problems',
        }),
      ];
    const lens = (title: string, command: string) => new vscode.CodeLens(top, { title, command, arguments: [document.uri] });
    const control = this.queue.get(document.uri)?.control;
    const estimate = estimateText(sweepEstimate(parsed.sweep));
    const actions =
      control === 'running'
        ? [lens('$(debug-pause) Pause', 'mtrl.pauseSweep'), lens('$(circle-slash) Cancel', 'mtrl.cancelSweep')]
        : control === 'paused'
          ? [lens('$(play) Resume', 'mtrl.startSweep'), lens('$(circle-slash) Cancel', 'mtrl.cancelSweep')]
          : [lens(`$(play) Start sweep: ${estimate}`, 'mtrl.startSweep')];
    return [...actions, lens('$(table) Compare', 'mtrl.compareSweep')];
  }

  /** The document parsed once per version: VS Code asks again for every edit and every queue change. */
  private parsed(document: vscode.TextDocument): ReturnType<typeof parseSweep> {
    const key = document.uri.toString();
    const cached = this.cache.get(key);
    if (cached?.version === document.version) return cached.parsed;
    const parsed = parseSweep(document.getText());
    this.cache.set(key, { version: document.version, parsed });
    return parsed;
  }

  dispose(): void {
    this.changed.dispose();
  }
}
