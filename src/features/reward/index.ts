import * as vscode from 'vscode';
import { findReward } from '../../core/reward';
import type { Services } from '../services';
import { AfterSave } from './afterSave';
import { rewardDiagnostics } from './diagnostics';
import { RewardCodeLensProvider, SHOW_PREVIEW_COMMAND, TRUST_TITLE } from './lens';
import { RewardPanels } from './panel';
import { RewardPreviews, rewardSettings } from './previews';
import { registerNewScenarioFile } from './newScenarioFile';
import { registerScenarios } from './scenarios';

function isPythonFile(document: vscode.TextDocument): boolean {
  return document.languageId === 'python' && document.uri.scheme === 'file';
}

/** The file a lens click or the palette means: the active editor, else the one visible Python editor holding a reward. */
function rewardEditorUri(settingsOf: typeof rewardSettings): vscode.Uri | undefined {
  const active = vscode.window.activeTextEditor?.document;
  if (active && isPythonFile(active)) return active.uri;
  const shown = vscode.window.visibleTextEditors
    .map((e) => e.document)
    .filter((d) => isPythonFile(d) && findReward(d.getText(), settingsOf(d.uri).entry));
  return shown.length === 1 ? shown[0].uri : active?.uri;
}

/** Reward preview: CodeLens with canonical-game scores above the reward, a preview panel and invariant warnings. */
export function register(services: Services): void {
  const { context } = services;
  const previews = new RewardPreviews(services, context.asAbsolutePath('dist/python/reward_harness.py'));
  const lenses = new RewardCodeLensProvider(previews);
  const panels = new RewardPanels();
  const diagnostics = vscode.languages.createDiagnosticCollection('mtrl-reward');
  const afterSave = new AfterSave(
    'Reward preview',
    (uri) => previews.preview(uri),
    (message) => services.output.error(message),
  );
  context.subscriptions.push(previews, lenses, panels, diagnostics, afterSave);
  registerScenarios(services);
  registerNewScenarioFile(context);

  context.subscriptions.push(
    vscode.languages.registerCodeLensProvider({ language: 'python', scheme: 'file' }, lenses),
    previews.onDidChange((uri) => {
      const outcome = previews.last(uri);
      if (!outcome) return;
      const document = vscode.workspace.textDocuments.find((d) => d.uri.toString() === uri.toString());
      const settings = rewardSettings(uri);
      const line = document ? findReward(document.getText(), settings.entry)?.line : undefined;
      diagnostics.set(uri, rewardDiagnostics(outcome, document, line));
      panels.update(uri, outcome);
      lenses.refresh();
    }),
  );

  context.subscriptions.push(
    vscode.commands.registerCommand(SHOW_PREVIEW_COMMAND, async (target?: vscode.Uri) => {
      const uri = target instanceof vscode.Uri ? target : rewardEditorUri(rewardSettings);
      if (!uri || !uri.path.endsWith('.py')) {
        void vscode.window.showInformationMessage(
          'Open the Python file with your reward (a WordleGame class or the mtrl.reward.entry function) to preview it.',
        );
        return;
      }
      if (!vscode.workspace.isTrusted) {
        void vscode.window
          .showWarningMessage(`${TRUST_TITLE}: the preview runs this file with Python.`, 'Manage Workspace Trust')
          .then((choice) => {
            if (choice) void vscode.commands.executeCommand('workbench.trust.manage');
          });
        return;
      }
      const outcome = await vscode.window.withProgress(
        {
          location: vscode.ProgressLocation.Notification,
          title: `MTRL: previewing the reward in ${vscode.workspace.asRelativePath(uri)}`,
          cancellable: true,
        },
        (_progress, token) =>
          Promise.race([
            previews.preview(uri),
            new Promise<undefined>((resolve) => token.onCancellationRequested(() => resolve(undefined))),
          ]),
      );
      if (outcome) panels.show(uri, outcome);
    }),
  );

  const runAfterSave = (document: vscode.TextDocument) => {
    const settings = rewardSettings(document.uri);
    if (!vscode.workspace.isTrusted || !settings.codeLens || !isPythonFile(document) || !findReward(document.getText(), settings.entry))
      return;
    afterSave.schedule(document.uri);
  };

  context.subscriptions.push(
    vscode.workspace.onDidSaveTextDocument(runAfterSave),
    vscode.workspace.onDidCloseTextDocument((document) => diagnostics.delete(document.uri)),
    vscode.workspace.onDidGrantWorkspaceTrust(() => lenses.refresh()),
    services.settings.onDidChange(['reward', 'python'], (changed) => {
      if (changed('reward.codeLens')) {
        diagnostics.forEach((uri) => {
          if (!rewardSettings(uri).codeLens) diagnostics.delete(uri);
        });
      }
      lenses.refresh();
    }),
  );
}
