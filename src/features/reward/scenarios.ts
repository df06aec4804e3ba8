import * as vscode from 'vscode';
import { score } from '../../core/reward';
import type { Services } from '../services';
import { AfterSave } from './afterSave';
import { TRUST_TITLE } from './lens';
import { rewardSettings } from './previews';
import { isScenarioFile, scenarioDiagnostics, ScenarioLensProvider, SHOW_SCENARIOS_COMMAND } from './scenarioLens';
import { ScenarioPreviews } from './scenarioPreviews';

/** The scenario files the active editor is about: itself, or those scoring the reward in it. */
function scenarioFilesOfActiveEditor(previews: ScenarioPreviews): vscode.Uri[] {
  const uri = vscode.window.activeTextEditor?.document.uri;
  if (!uri) return [];
  return isScenarioFile(uri) ? [uri] : previews.scoring(uri).map((e) => e.uri);
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
  const items: (vscode.QuickPickItem & { file?: vscode.Uri; needle?: string })[] = [];
  for (const file of files) {
    const { result } = await previews.preview(file);
    items.push({ label: vscode.workspace.asRelativePath(file), kind: vscode.QuickPickItemKind.Separator });
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
  }
  const picked = await vscode.window.showQuickPick(items, { title: 'MTRL: reward scenarios', matchOnDetail: true });
  if (!picked?.file) return;
  const document = await vscode.workspace.openTextDocument(picked.file);
  const offset = picked.needle ? Math.max(0, document.getText().indexOf(JSON.stringify(picked.needle))) : 0;
  const position = document.positionAt(offset);
  await vscode.window.showTextDocument(document, { selection: new vscode.Range(position, position) });
}

/** Reward scenarios for any environment: lens above the scored reward, expectation warnings, the scores in a quick pick. */
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
    previews.onDidChange((uri) => {
      publish(uri);
      lenses.refresh();
    }),
    vscode.workspace.onDidSaveTextDocument((document) => {
      if (isScenarioFile(document.uri)) rerun(document.uri);
      else for (const entry of previews.scoring(document.uri)) rerun(entry.uri);
    }),
    vscode.workspace.onDidGrantWorkspaceTrust(() => lenses.refresh()),
    services.settings.onDidChange(['reward', 'python'], () => lenses.refresh()),
  );
}
