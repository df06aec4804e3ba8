import * as vscode from 'vscode';
import { score } from '../../core/reward';
import type { Services } from '../services';
import { AfterSave } from './afterSave';
import { packScenarioFile } from '../../services/rewardScenarios';
import { isScenarioFile, scenarioDiagnostics, ScenarioLensProvider, SHOW_SCENARIOS_COMMAND, TRUST_TITLE } from './scenarioLens';
import { rewardSettings, ScenarioPreviews } from './scenarioPreviews';

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
  const offered = uri && packScenarioFile(uri.fsPath, new TextDecoder().decode(await vscode.workspace.fs.readFile(uri)));
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

/** Each scenario's score and each expectation, in a quick pick; picking one opens the scenario file at it. */
async function showScenarios(previews: ScenarioPreviews): Promise<void> {
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
  const items: (vscode.QuickPickItem & { file?: vscode.Uri; needle?: string; save?: boolean })[] = [];
  for (const file of files) {
    const { result } = await previews.preview(file);
    const offered = !isScenarioFile(file);
    const title = offered ? `${vscode.workspace.asRelativePath(file)}: the environment's scenarios` : vscode.workspace.asRelativePath(file);
    items.push({ label: title, kind: vscode.QuickPickItemKind.Separator });
    if (!result.ok) {
      items.push({ label: '$(error) Could not score', detail: result.message, file });
      continue;
    }
    for (const s of result.scored)
      items.push({
        label: `${s.name}  ${score(s.reward)}`,
        description: `${s.turns.length} turns${s.finished ? ' · finished' : ''}`,
        file,
        needle: s.name,
      });
    for (const [name, f] of Object.entries(result.failures))
      items.push({ label: `$(warning) ${name} not scored`, detail: f.message, file, needle: name });
    for (const r of result.results)
      items.push({ label: `${r.ok ? '$(pass)' : '$(error)'} ${r.name}`, detail: r.detail, file, needle: r.name });
    // Last, so Enter on the list never writes a file.
    if (offered)
      items.push({
        label: '$(save) Save these scenarios as a scenario file',
        detail: 'Beside the reward, to edit the scenarios and expectations',
        file,
        save: true,
      });
  }
  const picked = await vscode.window.showQuickPick(items, { title: 'MTRL: reward scenarios', matchOnDetail: true });
  if (!picked?.file) return;
  if (picked.save) {
    await saveOfferedScenarios(picked.file);
    return;
  }
  const document = await vscode.workspace.openTextDocument(picked.file);
  const offset = picked.needle ? Math.max(0, document.getText().indexOf(JSON.stringify(picked.needle))) : 0;
  const position = document.positionAt(offset);
  await vscode.window.showTextDocument(document, { selection: new vscode.Range(position, position) });
}

/**
 * Reward scenarios for any environment: lens above the scored reward, expectation warnings, the scores in a quick pick.
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
  context.subscriptions.push(previews, lenses, diagnostics, afterSave);

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
    vscode.commands.registerCommand(SHOW_SCENARIOS_COMMAND, () => showScenarios(previews)),
    vscode.commands.registerCommand(SAVE_SCENARIOS_COMMAND, (python?: vscode.Uri) =>
      saveOfferedScenarios(python instanceof vscode.Uri ? python : undefined),
    ),
    previews.onDidChange((uri) => {
      publish(uri);
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
