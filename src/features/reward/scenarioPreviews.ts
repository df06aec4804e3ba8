import { createHash } from 'node:crypto';
import * as vscode from 'vscode';
import { parseScenarioFile, type RewardSpec } from '../../core/reward';
import { packScenarioFile, previewScenarios, rewardFileOf, type ScenarioOutcome } from '../../services/rewardScenarios';
import { findPython } from '../python';
import type { Services } from '../services';
import { setting } from '../settings';

export const SCENARIO_GLOB = '**/*.mtrl-reward.json';

/** The reward settings for one file, read fresh every time so changes apply without reload. */
export function rewardSettings(uri: vscode.Uri): { codeLens: boolean; timeoutSeconds: number } {
  return { codeLens: setting('reward.codeLens', uri), timeoutSeconds: setting('reward.timeoutSeconds', uri) };
}

/** A scenario file and the reward it scores, as last read from disk. */
export interface ScenarioFileEntry {
  /** The scenario file; for scenarios a pack offers, the Python file they score. */
  uri: vscode.Uri;
  /** The Python file's path; absent when the file cannot be read as a scenario file. */
  rewardPath?: string;
  spec?: RewardSpec;
  /** Scenarios an environment pack offers for a Python file no scenario file scores (not saved yet). */
  offered?: boolean;
}

const isPythonFile = (uri: vscode.Uri) => uri.scheme === 'file' && uri.path.endsWith('.py');

/**
 * The workspace's `*.mtrl-reward.json` files, which reward each scores, and their last preview: runs only on saved
 * versions, one run per content of the scenario file and the Python file (hash), shared by lens, diagnostics and the palette.
 */
export class ScenarioPreviews implements vscode.Disposable {
  private readonly files = new Map<string, ScenarioFileEntry>();
  private readonly runs = new Map<string, { key: string; run: Promise<ScenarioOutcome>; controller: AbortController }>();
  private readonly latest = new Map<string, ScenarioOutcome>();
  private readonly changed = new vscode.EventEmitter<vscode.Uri>();
  private readonly watcher = vscode.workspace.createFileSystemWatcher(SCENARIO_GLOB);
  // A folder copied into the workspace may reach the watcher as the folder alone: opening a Python file reads the
  // scenario files beside it that the index lacks.
  private readonly opened = vscode.workspace.onDidOpenTextDocument((document) => void this.readBeside(document.uri));
  /** Fires with the scenario file whose preview has a new result, or whose content changed. */
  readonly onDidChange = this.changed.event;
  readonly ready: Promise<void>;

  constructor(
    private readonly services: Services,
    private readonly script: string,
  ) {
    this.watcher.onDidCreate((uri) => void this.read(uri));
    this.watcher.onDidChange((uri) => void this.read(uri));
    this.watcher.onDidDelete((uri) => {
      this.files.delete(uri.toString());
      this.latest.delete(uri.toString());
      this.changed.fire(uri);
    });
    this.ready = Promise.resolve(vscode.workspace.findFiles(SCENARIO_GLOB, '**/node_modules/**', 200)).then(async (uris) => {
      await Promise.all(uris.map((uri) => this.read(uri)));
    });
  }

  private async read(uri: vscode.Uri): Promise<void> {
    let text = '';
    try {
      text = new TextDecoder().decode(await vscode.workspace.fs.readFile(uri));
    } catch {
      // Gone or unreadable: kept as a file without a reward, so its problems still show.
    }
    const { file } = parseScenarioFile(text);
    this.files.set(uri.toString(), { uri, spec: file?.reward, rewardPath: file && rewardFileOf(uri.fsPath, file.reward) });
    this.changed.fire(uri);
  }

  private async readBeside(uri: vscode.Uri): Promise<void> {
    if (uri.scheme !== 'file' || !uri.path.endsWith('.py')) return;
    const folder = vscode.Uri.joinPath(uri, '..');
    const entries = await Promise.resolve(vscode.workspace.fs.readDirectory(folder)).catch(() => []);
    const unknown = entries
      .filter(([name]) => name.endsWith('.mtrl-reward.json'))
      .map(([name]) => vscode.Uri.joinPath(folder, name))
      .filter((file) => !this.files.has(file.toString()));
    await Promise.all(unknown.map((file) => this.read(file)));
  }

  /** Scenario files that score the reward in this Python file; with its text and none of them, the scenarios a pack offers for it. */
  scoring(python: vscode.Uri, source?: string): ScenarioFileEntry[] {
    const files = [...this.files.values()].filter((f) => f.rewardPath === python.fsPath);
    if (files.length || source === undefined || !isPythonFile(python)) return files;
    const offered = packScenarioFile(python.fsPath, source);
    return offered ? [{ uri: python, rewardPath: python.fsPath, spec: offered.file.reward, offered: true }] : [];
  }

  entry(uri: vscode.Uri): ScenarioFileEntry | undefined {
    return this.files.get(uri.toString());
  }

  last(uri: vscode.Uri): ScenarioOutcome | undefined {
    return this.latest.get(uri.toString());
  }

  /**
   * The preview of the scenario file as saved (of a Python file: of the scenarios a pack offers for it); runs Python
   * only when either file or the interpreter changed.
   */
  async preview(uri: vscode.Uri): Promise<ScenarioOutcome> {
    const entry = this.files.get(uri.toString());
    const read = (u: vscode.Uri) => Promise.resolve(vscode.workspace.fs.readFile(u)).catch(() => new Uint8Array());
    const [saved, reward, python] = await Promise.all([
      read(uri),
      entry?.rewardPath ? read(vscode.Uri.file(entry.rewardPath)) : new Uint8Array(),
      findPython(uri),
    ]);
    const offered = isPythonFile(uri) ? packScenarioFile(uri.fsPath, new TextDecoder().decode(saved)) : undefined;
    if (isPythonFile(uri) && !offered) {
      const message = `No scenario file scores ${vscode.workspace.asRelativePath(uri)}, and no environment pack recognizes its reward.`;
      return { result: { ok: false, error: 'file', message, problems: [] }, stderr: '' };
    }
    const timeoutSeconds = rewardSettings(uri).timeoutSeconds;
    const key = createHash('sha256')
      .update(saved)
      .update(reward)
      .update(JSON.stringify([uri.fsPath, python.path, timeoutSeconds]))
      .digest('hex');
    let current = this.runs.get(uri.toString());
    if (current?.key !== key) {
      current?.controller.abort();
      const controller = new AbortController();
      const name = vscode.workspace.asRelativePath(uri);
      this.services.output.info(`Reward scenarios: running ${name} with ${python.path}`);
      const run = previewScenarios(offered?.path ?? uri.fsPath, {
        python: python.path,
        script: this.script,
        ...(offered ? { file: offered.file } : { text: new TextDecoder().decode(saved) }),
        timeoutMs: timeoutSeconds * 1000,
        signal: controller.signal,
        onStderr: (text) => text.trimEnd() && this.services.output.info(`[${name}] ${text.trimEnd()}`),
      });
      current = { key, run, controller };
      this.runs.set(uri.toString(), current);
    }
    const outcome = await current.run;
    if (!outcome.result.ok && outcome.result.error === 'cancelled' && this.runs.get(uri.toString())?.key !== key) return this.preview(uri);
    if (this.latest.get(uri.toString()) !== outcome) {
      this.latest.set(uri.toString(), outcome);
      this.changed.fire(uri);
    }
    return outcome;
  }

  dispose(): void {
    for (const { controller } of this.runs.values()) controller.abort();
    this.watcher.dispose();
    this.opened.dispose();
    this.changed.dispose();
  }
}
