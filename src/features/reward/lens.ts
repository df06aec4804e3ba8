import * as vscode from 'vscode';
import { findReward, summaryLine, type RewardPreviewFailure } from '../../core/reward';
import { rewardSettings, type RewardPreviews } from './previews';

export const SHOW_PREVIEW_COMMAND = 'mtrl.showRewardPreview';
export const TRUST_TITLE = 'Trust this workspace to preview rewards';

class RewardLens extends vscode.CodeLens {
  constructor(
    range: vscode.Range,
    readonly uri: vscode.Uri,
  ) {
    super(range);
  }
}

/** The CodeLens title when the reward could not be scored: short, the details are in Problems and the output. */
function failureTitle(failure: RewardPreviewFailure): string {
  const where = failure.line ? ` (line ${failure.line})` : '';
  const first = failure.message.split('\n')[0];
  const short = first.length > 90 ? `${first.slice(0, 89)}…` : first;
  return `$(warning) Reward preview failed${where}: ${short}`;
}

/** Scores above the reward: finding the line is cheap and synchronous, running Python happens in resolve. */
export class RewardCodeLensProvider implements vscode.CodeLensProvider<RewardLens>, vscode.Disposable {
  private readonly changed = new vscode.EventEmitter<void>();
  readonly onDidChangeCodeLenses = this.changed.event;

  constructor(private readonly previews: RewardPreviews) {}

  /** Asks the editor for lenses again (new result, settings or trust changed). */
  refresh(): void {
    this.changed.fire();
  }

  provideCodeLenses(document: vscode.TextDocument): RewardLens[] {
    const settings = rewardSettings(document.uri);
    if (!settings.codeLens || document.uri.scheme !== 'file') return [];
    const found = findReward(document.getText(), settings.entry);
    if (!found) return [];
    const lens = new RewardLens(document.lineAt(found.line).range, document.uri);
    if (!vscode.workspace.isTrusted) {
      // Restricted Mode: never run workspace code; offer the way out instead.
      lens.command = {
        title: TRUST_TITLE,
        command: 'workbench.trust.manage',
        tooltip: 'The reward preview runs this file with Python, which needs a trusted workspace.',
      };
    }
    return [lens];
  }

  async resolveCodeLens(lens: RewardLens): Promise<RewardLens> {
    if (lens.command) return lens;
    let outcome;
    try {
      outcome = await this.previews.preview(lens.uri);
    } catch (error) {
      lens.command = {
        title: `$(warning) Reward preview failed: ${error instanceof Error ? error.message : String(error)}`,
        command: SHOW_PREVIEW_COMMAND,
      };
      return lens;
    }
    const { result } = outcome;
    const title = result.ok ? summaryLine(result) : failureTitle(result);
    const tooltip = result.ok ? 'Scores on the canonical games (as saved); click for every game and invariant.' : 'Click for the details.';
    // No arguments: VS Code keeps a lens command with arguments only until the lenses refresh, and a click on a lens
    // drawn before that failed with "Actual command not found". The command previews the editor the lens is in.
    lens.command = { title, tooltip, command: SHOW_PREVIEW_COMMAND };
    return lens;
  }

  dispose(): void {
    this.changed.dispose();
  }
}
