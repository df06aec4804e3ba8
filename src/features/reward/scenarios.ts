import * as vscode from 'vscode';
import type { Services } from '../services';
import { AfterSave } from './afterSave';
import { packScenarioFile } from '../../services/rewardScenarios';
import { isScenarioFile, scenarioDiagnostics, ScenarioLensProvider, SHOW_SCENARIOS_COMMAND, TRUST_TITLE } from './scenarioLens';
import { rewardSettings, ScenarioPreviews } from './scenarioPreviews';
import { RewardScoresPanels } from './scoresPanel';

const SAVE_SCENARIOS_COMMAND = 'mtrl.saveRewardScenarios';

/** The scenario files the active editor is about: itself, or those scoring the reward in it (or a pack offers for it). */
function scenarioFilesOfActiveEditor(previews: ScenarioPreviews): vscode.Uri[] {
  const document = vscode.window.activeTextEditor?.document;
  if (!document) return [];
  return isScenarioFile(document.uri) ? [document.uri] : previews.scoring(document.uri, document.getText()).map((e) => e.uri);
}

/** Writes the scenarios a pack offers for a Python file as a real scenario file beside it and opens it (an existing file is opened, not overwritten). */
async function saveOfferedScenarios(python: vscode.Uri | undefined): Promise<vscode.Uri | undefined> {
  const uri = python ?? vscode.window.activeTextEditor?.document.uri;
  const offered =
    uri?.scheme === 'file' && uri.path.endsWith('.py')
      ? packScenarioFile(uri.fsPath, new TextDecoder().decode(await vscode.workspace.fs.readFile(uri)))
      : undefined;
  if (!offered) {
    void vscode.window.showInformationMessage('Open a Python reward that an environment pack recognizes to save its scenarios.');
    return undefined;
  }
  const target = vscode.Uri.file(offered.path);
  const exists = await Promise.resolve(vscode.workspace.fs.stat(target)).then(
    () => true,
    () => false,
  );
  if (!exists) await vscode.workspace.fs.writeFile(target, new TextEncoder().encode(offered.text));
  await vscode.window.showTextDocument(await vscode.workspace.openTextDocument(target));
  return target;
}

/** The scores view of each scenario file the active editor is about, beside it; it fills in once Python has scored them. */
async function showScores(previews: ScenarioPreviews, panels: RewardScoresPanels): Promise<void> {
  const files = scenarioFilesOfActiveEditor(previews);
  if (!files.length) {
    void vscode.window.showInformationMessage(
      'Open a *.mtrl-reward.json file, or the Python reward one of them names, to see its scenario scores.',
    );
    return;
  }
  if (!vscode.workspace.isTrusted) {
    void vscode.window.showWarningMessage(`${TRUST_TITLE}: scoring scenarios runs the reward with Python.`);
    return;
  }
  for (const file of files) panels.show(file, previews.last(file));
  await Promise.all(files.map((file) => previews.preview(file)));
}

/**
 * Reward scenarios for any environment: lens above the scored reward, expectation warnings, the scores view.
 * A Python reward no scenario file names is scored on the scenarios its environment pack offers, which can be saved.
 */
export function registerScenarios(services: Services): void {
  const { context } = services;
  const previews = new ScenarioPreviews(services, context.asAbsolutePath('dist/python/transcript_reward.py'));
  const lenses = new ScenarioLensProvider(previews, (uri) => rewardSettings(uri).codeLens);
  const diagnostics = vscode.languages.createDiagnosticCollection('mtrl-reward-scenarios');
  // Per scenario file, what it contributed to each file's diagnostics: a Python file may be scored by several.
  const contributed = new Map<string, Map<string, vscode.Diagnostic[]>>();
  const afterSave = new AfterSave(
    'Reward scenarios',
    (uri) => previews.preview(uri),
    (message) => services.output.error(message),
  );
  const panels = new RewardScoresPanels(context.extensionUri, (python) => saveOfferedScenarios(python));
  context.subscriptions.push(previews, lenses, diagnostics, afterSave, panels);

  const publish = (scenarioFile: vscode.Uri) => {
    const outcome = previews.last(scenarioFile);
    const fresh = outcome ? scenarioDiagnostics(scenarioFile, outcome, vscode.workspace.textDocuments) : new Map();
    const touched = new Set([...(contributed.get(scenarioFile.toString())?.keys() ?? []), ...fresh.keys()]);
    contributed.set(scenarioFile.toString(), new Map([...fresh].map(([k, v]) => [k, v.diagnostics])));
    for (const key of touched) {
      const all = [...contributed.values()].flatMap((m) => m.get(key) ?? []);
      diagnostics.set(vscode.Uri.parse(key), all);
    }
  };

  const rerun = (scenarioFile: vscode.Uri) => {
    if (vscode.workspace.isTrusted && rewardSettings(scenarioFile).codeLens) afterSave.schedule(scenarioFile);
  };

  context.subscriptions.push(
    vscode.languages.registerCodeLensProvider({ language: 'python', scheme: 'file' }, lenses),
    vscode.languages.registerCodeLensProvider({ scheme: 'file', pattern: '**/*.mtrl-reward.json' }, lenses),
    vscode.commands.registerCommand(SHOW_SCENARIOS_COMMAND, () => showScores(previews, panels)),
    vscode.commands.registerCommand(SAVE_SCENARIOS_COMMAND, (python?: vscode.Uri) =>
      saveOfferedScenarios(python instanceof vscode.Uri ? python : undefined),
    ),
    previews.onDidChange((uri) => {
      publish(uri);
      panels.update(uri, previews.last(uri));
      lenses.refresh();
    }),
    vscode.workspace.onDidSaveTextDocument((document) => {
      if (isScenarioFile(document.uri)) rerun(document.uri);
      else for (const entry of previews.scoring(document.uri, document.getText())) rerun(entry.uri);
    }),
    vscode.workspace.onDidGrantWorkspaceTrust(() => lenses.refresh()),
    services.settings.onDidChange(['reward', 'python'], () => lenses.refresh()),
  );
}
