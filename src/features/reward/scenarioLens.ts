import * as vscode from 'vscode';
import { findScoredDefinition, offsetOfPath, scenarioScoreText, scenarioSummaryLine } from '../../core/reward';
import type { ScenarioOutcome } from '../../services/rewardScenarios';
import type { ScenarioPreviews } from './scenarioPreviews';

export const SHOW_SCENARIOS_COMMAND = 'mtrl.showRewardScenarios';
export const TRUST_TITLE = 'Trust this workspace to preview rewards';
const SOURCE = 'MTRL reward scenarios';

class ScenarioLens extends vscode.CodeLens {
  constructor(
    range: vscode.Range,
    readonly scenarioFile: vscode.Uri,
  ) {
    super(range);
  }
}

export const isScenarioFile = (uri: vscode.Uri) => uri.scheme === 'file' && uri.path.endsWith('.mtrl-reward.json');

/** "ideal 1.00 · shortcut 0.75 · gave-up 0.00 · ✓ 3/3" above the scored function or class, and atop the scenario file. */
export class ScenarioLensProvider implements vscode.CodeLensProvider<ScenarioLens>, vscode.Disposable {
  private readonly changed = new vscode.EventEmitter<void>();
  readonly onDidChangeCodeLenses = this.changed.event;

  constructor(
    private readonly previews: ScenarioPreviews,
    private readonly enabled: (uri: vscode.Uri) => boolean,
  ) {}

  refresh(): void {
    this.changed.fire();
  }

  provideCodeLenses(document: vscode.TextDocument): ScenarioLens[] {
    if (document.uri.scheme !== 'file' || !this.enabled(document.uri)) return [];
    const lenses = isScenarioFile(document.uri)
      ? [new ScenarioLens(document.lineAt(0).range, document.uri)]
      : this.previews.scoring(document.uri, document.getText()).flatMap((entry) => {
          const line = entry.spec && findScoredDefinition(document.getText(), entry.spec);
          return line === undefined ? [] : [new ScenarioLens(document.lineAt(line).range, entry.uri)];
        });
    if (!vscode.workspace.isTrusted)
      for (const lens of lenses)
        lens.command = { title: TRUST_TITLE, command: 'workbench.trust.manage', tooltip: 'Scoring scenarios runs the reward with Python.' };
    return lenses;
  }

  async resolveCodeLens(lens: ScenarioLens): Promise<ScenarioLens> {
    if (lens.command) return lens;
    const { result } = await this.previews.preview(lens.scenarioFile);
    const name = isScenarioFile(lens.scenarioFile)
      ? vscode.workspace.asRelativePath(lens.scenarioFile)
      : 'the environment (no scenario file names this reward yet)';
    const failures = result.ok ? Object.keys(result.failures).length : 0;
    const title = result.ok
      ? `${scenarioSummaryLine(result.scored, result.results)}${failures ? ` \u00b7 $(warning) ${failures} not scored` : ''}`
      : `$(warning) Reward scenarios failed: ${result.message.split('\n')[0].slice(0, 90)}`;
    // No arguments: a lens drawn before a refresh keeps its command, and the palette command finds the file itself.
    lens.command = {
      title,
      tooltip: [
        `Scenarios of ${name} (as saved); click for each score and expectation.`,
        ...(result.ok ? result.scored.filter((s) => s.components).map(scenarioScoreText) : []),
      ].join('\n'),
      command: SHOW_SCENARIOS_COMMAND,
    };
    return lens;
  }

  dispose(): void {
    this.changed.dispose();
  }
}

function at(document: vscode.TextDocument | undefined, line: number): vscode.Range {
  const l = Math.max(0, Math.min(line, (document?.lineCount ?? line + 1) - 1));
  return new vscode.Range(l, 0, l, document ? document.lineAt(l).range.end.character : 1000);
}

function diagnostic(range: vscode.Range, message: string, severity: vscode.DiagnosticSeverity, code: string): vscode.Diagnostic {
  const d = new vscode.Diagnostic(range, message, severity);
  d.source = SOURCE;
  d.code = code;
  return d;
}

/** Diagnostics of one scenario file's preview: broken expectations at the reward and at the expectation, problems where they are. */
export function scenarioDiagnostics(
  scenarioFile: vscode.Uri,
  outcome: ScenarioOutcome,
  documents: readonly vscode.TextDocument[],
): Map<string, { uri: vscode.Uri; diagnostics: vscode.Diagnostic[] }> {
  const byUri = new Map<string, { uri: vscode.Uri; diagnostics: vscode.Diagnostic[] }>();
  const add = (uri: vscode.Uri, d: vscode.Diagnostic) => {
    const entry = byUri.get(uri.toString()) ?? { uri, diagnostics: [] };
    entry.diagnostics.push(d);
    byUri.set(uri.toString(), entry);
  };
  const open = (uri: vscode.Uri) => documents.find((d) => d.uri.fsPath === uri.fsPath);
  // Scenarios a pack offers for a Python file have no file of their own: their findings stay at the reward.
  const own = isScenarioFile(scenarioFile);
  const scenarioDoc = own ? open(scenarioFile) : undefined;
  const inScenarioFile = (offset: number) => (scenarioDoc ? at(scenarioDoc, scenarioDoc.positionAt(offset).line) : at(undefined, 0));
  const { result } = outcome;
  const { Error: E, Warning: W } = vscode.DiagnosticSeverity;
  if (!result.ok && result.error === 'file') {
    const text = scenarioDoc?.getText() ?? '';
    for (const p of result.problems)
      add(scenarioFile, diagnostic(inScenarioFile(offsetOfPath(text, p.path)), p.message, E, 'scenario-file'));
    return byUri;
  }
  if (!result.ok) {
    if (result.rewardFile) {
      const reward = vscode.Uri.file(result.rewardFile);
      const line = 'line' in result && typeof result.line === 'number' ? result.line : 1;
      const whole = at(open(reward), line - 1);
      // A syntax error's column: the squiggle starts where Python points.
      const column = 'column' in result && typeof result.column === 'number' ? Math.min(result.column - 1, whole.end.character) : 0;
      const range = new vscode.Range(whole.start.line, column, whole.end.line, Math.max(whole.end.character, column + 1));
      add(reward, diagnostic(range, `Reward scenarios: ${result.message}`, E, result.error));
    } else add(scenarioFile, diagnostic(at(scenarioDoc, 0), result.message, E, result.error));
    return byUri;
  }
  const reward = vscode.Uri.file(result.rewardFile);
  const rewardDoc = open(reward);
  const scenarioText = scenarioDoc?.getText() ?? '';
  for (const r of result.results.filter((x) => !x.ok)) {
    const where = own ? vscode.workspace.asRelativePath(scenarioFile) : 'scenarios of the environment';
    const message = `Reward expectation ${r.name} broken (${where}): ${r.detail}`;
    add(reward, diagnostic(at(rewardDoc, result.rewardLine - 1), message, W, 'expectation'));
    const offset = scenarioText.indexOf(JSON.stringify(r.name));
    if (own) add(scenarioFile, diagnostic(inScenarioFile(Math.max(0, offset)), `${r.name}: ${r.detail}`, W, 'expectation'));
  }
  for (const [name, f] of Object.entries(result.failures)) {
    add(
      reward,
      diagnostic(
        at(rewardDoc, (f.line ?? result.rewardLine) - 1),
        `Scenario ${name} could not be scored: ${f.message}`,
        W,
        'scenario-failed',
      ),
    );
    if (own)
      add(
        scenarioFile,
        diagnostic(
          inScenarioFile(Math.max(0, scenarioText.indexOf(JSON.stringify(name)))),
          `${name} could not be scored: ${f.message}`,
          W,
          'scenario-failed',
        ),
      );
  }
  return byUri;
}
