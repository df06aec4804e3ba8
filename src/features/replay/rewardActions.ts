import * as vscode from 'vscode';
import { rescoreText, scenarioFromTranscript, withScenario } from '../../core/reward';
import { loadScenarioFile, rescoreTranscripts, rewardFileOf } from '../../services/rewardScenarios';
import { findPython } from '../python';
import type { Services } from '../services';
import { setting } from '../settings';
import { openBoards } from './board';

const SCENARIO_GLOB = '**/*.mtrl-reward.json';
const REPORT_SCHEME = 'mtrl-whatif';
/** What-if reports by URI: read-only documents, so closing one never asks to save. */
const reports = new Map<string, string>();
const NEW_FILE = '$(new-file) New scenario file…';

/** A scenario file to write to or score with: one of the workspace's, or (when asked for) a new one beside the first Python file. */
async function pickScenarioFile(purpose: string, offerNew: boolean): Promise<vscode.Uri | undefined> {
  const files = await vscode.workspace.findFiles(SCENARIO_GLOB, '**/node_modules/**', 200);
  const items: { label: string; uri?: vscode.Uri }[] = files.map((uri) => ({ label: vscode.workspace.asRelativePath(uri), uri }));
  if (offerNew) items.push({ label: NEW_FILE });
  if (!items.length) {
    void vscode.window.showInformationMessage(
      'No *.mtrl-reward.json in the workspace: create one beside your reward (see the README, Reward scenarios).',
    );
    return undefined;
  }
  // Kept open when the focus moves: the board, brought forward just before (Try a Changed Reward), may take the focus as
  // it finishes drawing, which closed the pick unseen in a host run.
  const picked = await vscode.window.showQuickPick(items, {
    title: `MTRL: ${purpose}`,
    placeHolder: 'Reward scenario file',
    ignoreFocusOut: true,
  });
  if (!picked) return undefined;
  if (picked.uri) return picked.uri;
  const folder = vscode.workspace.workspaceFolders?.[0]?.uri;
  return vscode.window.showSaveDialog({
    title: 'New reward scenario file',
    defaultUri: folder && vscode.Uri.joinPath(folder, 'rollouts.mtrl-reward.json'),
    filters: { 'Reward scenarios': ['json'] },
  });
}

/** Saves the rollout the board plays as a named scenario: an undoable edit of the scenario file, never overwriting a name. */
async function saveAsScenario(fileArg?: vscode.Uri, nameArg?: string): Promise<void> {
  const rollout = await openBoards()?.active?.currentRollout();
  if (!rollout) {
    void vscode.window.showInformationMessage('Select a rollout on the replay board first: it becomes the scenario.');
    return;
  }
  const file = fileArg instanceof vscode.Uri ? fileArg : await pickScenarioFile('save the rollout as a reward scenario', true);
  if (!file) return;
  let text = '';
  try {
    text = (await vscode.workspace.openTextDocument(file)).getText();
  } catch {
    // A new file: the scenario file starts with this scenario and a reward to fill in.
  }
  const name =
    typeof nameArg === 'string'
      ? nameArg
      : await vscode.window.showInputBox({
          title: 'Scenario name',
          value: `rollout-${rollout.id.slice(-8)}`,
          validateInput: (value) => {
            const checked = withScenario(text, value, {});
            return 'problem' in checked ? checked.problem : undefined;
          },
        });
  if (!name) return;
  const base = text.trim() ? text : JSON.stringify({ reward: { file: 'reward.py', function: 'reward' } });
  const result = withScenario(base, name, scenarioFromTranscript(rollout));
  if ('problem' in result) {
    void vscode.window.showErrorMessage(`MTRL: ${result.problem}`);
    return;
  }
  const edit = new vscode.WorkspaceEdit();
  if (!text) edit.createFile(file, { ignoreIfExists: true });
  const document = text ? await vscode.workspace.openTextDocument(file) : undefined;
  const end = document ? document.lineAt(document.lineCount - 1).range.end : new vscode.Position(0, 0);
  edit.replace(file, new vscode.Range(new vscode.Position(0, 0), end), result.text);
  await vscode.workspace.applyEdit(edit);
  await vscode.window.showTextDocument(file);
}

/** What-if: the scenario file's reward as it is now over the rollouts the board shows, next to the rewards they got; returns the report's text. */
async function rescoreShown(services: Services, fileArg?: vscode.Uri): Promise<string | undefined> {
  const panel = openBoards()?.active;
  const rollouts = (await panel?.shownRollouts()) ?? [];
  if (!panel || !rollouts.length) {
    void vscode.window.showInformationMessage('Open rollouts on the replay board first: the rollouts it shows are re-scored.');
    return;
  }
  if (!vscode.workspace.isTrusted) {
    void vscode.window.showWarningMessage('Trust this workspace to re-score rollouts: it runs your reward with Python.');
    return;
  }
  const file =
    fileArg instanceof vscode.Uri
      ? fileArg
      : await pickScenarioFile(`re-score the ${rollouts.length.toLocaleString()} rollouts shown`, false);
  if (!file) return;
  const loaded = await loadScenarioFile(file.fsPath);
  if ('ok' in loaded) return void vscode.window.showErrorMessage(`MTRL: ${loaded.message}`);
  const rewardFile = rewardFileOf(file.fsPath, loaded.file.reward);
  const python = await findPython(file);
  const outcome = await vscode.window.withProgress(
    {
      location: vscode.ProgressLocation.Notification,
      title: `MTRL: re-scoring ${rollouts.length.toLocaleString()} rollouts`,
      cancellable: true,
    },
    (_progress, token) => {
      const cancel = new AbortController();
      token.onCancellationRequested(() => cancel.abort());
      return rescoreTranscripts(rewardFile, loaded.file.reward, rollouts, {
        python: python.path,
        script: services.context.asAbsolutePath('dist/python/transcript_reward.py'),
        // The whole batch runs in one process: allow a second per hundred rollouts beyond the preview's time.
        timeoutMs: (setting('reward.timeoutSeconds', file) + rollouts.length / 100) * 1000,
        signal: cancel.signal,
        onStderr: (text) => text.trimEnd() && services.output.info(`[re-score] ${text.trimEnd()}`),
      });
    },
  );
  if ('failure' in outcome) return void vscode.window.showErrorMessage(`MTRL: the reward could not run: ${outcome.failure.message}`);
  const reward = `${vscode.workspace.asRelativePath(rewardFile)} (${vscode.workspace.asRelativePath(file)})`;
  const content = rescoreText(outcome.report, `the board (${panel.source.label})`, reward);
  const uri = vscode.Uri.from({ scheme: REPORT_SCHEME, path: `/What-if ${reports.size + 1}.txt` });
  reports.set(uri.toString(), content);
  await vscode.window.showTextDocument(uri, { preview: false });
  return content;
}

/** The board's reward actions, in its editor title: save a rollout as a scenario, re-score the rollouts shown. */
export function registerRewardActions(services: Services): vscode.Disposable[] {
  return [
    vscode.workspace.registerTextDocumentContentProvider(REPORT_SCHEME, {
      provideTextDocumentContent: (uri) => reports.get(uri.toString()),
    }),
    vscode.commands.registerCommand('mtrl.saveRolloutAsRewardScenario', saveAsScenario),
    vscode.commands.registerCommand('mtrl.rescoreShownRollouts', (file?: vscode.Uri) => rescoreShown(services, file)),
  ];
}
