import path from 'node:path';
import * as vscode from 'vscode';
import { enrichTranscript } from '../../core/environments/registry';
import { scenarioTranscript } from '../../core/reward';
import type { ScenarioOutcome } from '../../services/rewardScenarios';
import { REWARD_SCORES_VIEW, type RewardScoresProtocol, type RewardScoresState } from '../../shared/rewardScores';
import type { HostChannel } from '../../webview-kit/host';
import { openViewPanel, showApp } from '../../webview-kit/panel';
import { isScenarioFile } from './scenarioLens';

/** What the view draws of a preview: every scenario with its score and transcript, the expectations, or why there are none. */
export function scoresState(file: vscode.Uri, outcome: ScenarioOutcome | undefined): RewardScoresState {
  const base = {
    source: vscode.workspace.asRelativePath(file),
    offered: !isScenarioFile(file),
    scenarios: [],
    expectations: [],
    stubbed: [],
  };
  if (!outcome) return { ...base, loading: true };
  const { result } = outcome;
  if (!result.ok) return { ...base, loading: false, failure: result.message };
  return {
    ...base,
    loading: false,
    reward: `${result.target} in ${path.basename(result.rewardFile)}:${result.line}`,
    scenarios: result.scenarios.map((s) => ({
      name: s.name,
      reward: result.scored.find((x) => x.name === s.name)?.reward,
      components: result.scored.find((x) => x.name === s.name)?.components,
      finished: s.finished,
      failure: result.failures[s.name]?.message,
      transcript: enrichTranscript(scenarioTranscript(s)),
    })),
    expectations: result.results.map(({ name, ok, detail, breaks }) => ({
      name,
      ok,
      detail,
      ...(breaks && breaks.length > 1 ? { also: breaks.slice(1).map((b) => b.detail) } : {}),
    })),
    stubbed: result.stubbed,
  };
}

interface Shown {
  panel: vscode.WebviewPanel;
  channel: HostChannel<RewardScoresProtocol>;
}

/** One scores view per scenario file (or per Python file whose environment offers the scenarios), updated in place. */
export class RewardScoresPanels implements vscode.Disposable {
  private readonly shown = new Map<string, Shown>();

  constructor(
    private readonly extensionUri: vscode.Uri,
    /** Saves the scenarios a pack offers for a Python file as a scenario file beside it. */
    private readonly save: (python: vscode.Uri) => Promise<unknown>,
  ) {}

  /** Opens (or brings forward) the view of `file` beside the editor, showing `outcome` or, without one, that it is scoring. */
  show(file: vscode.Uri, outcome: ScenarioOutcome | undefined): void {
    const key = file.toString();
    const open = this.shown.get(key);
    if (open) {
      open.panel.reveal(undefined, true);
      this.update(file, outcome);
      return;
    }
    const title = `Reward scores: ${vscode.workspace.asRelativePath(file)}`;
    const panel = openViewPanel(REWARD_SCORES_VIEW, title, {
      extensionUri: this.extensionUri,
      show: { viewColumn: vscode.ViewColumn.Beside, preserveFocus: true },
    });
    const channel = showApp<RewardScoresProtocol>(panel, this.extensionUri, REWARD_SCORES_VIEW, scoresState(file, outcome));
    channel.on('save', () => void this.save(file));
    this.shown.set(key, { panel, channel });
    panel.onDidDispose(() => {
      channel.dispose();
      this.shown.delete(key);
    });
  }

  /** Redraws the view of `file`, if open. */
  update(file: vscode.Uri, outcome: ScenarioOutcome | undefined): void {
    this.shown.get(file.toString())?.channel.notify('state', scoresState(file, outcome));
  }

  dispose(): void {
    for (const { panel } of this.shown.values()) panel.dispose();
  }
}
