import { previewReward } from '../../services/rewardPreview';
import { createHash } from 'node:crypto';
import * as vscode from 'vscode';
import { parseEntrySetting, type PreviewOutcome } from '../../core/reward';
import { findPython } from '../python';
import type { Services } from '../services';
import { setting } from '../settings';

/** The reward settings for one file, read fresh every time so changes apply without reload. */
interface RewardSettings {
  codeLens: boolean;
  answer: string;
  /** The entry function for this file, when `mtrl.reward.entry` names it. */
  entry?: string;
  timeoutSeconds: number;
}

export function rewardSettings(uri: vscode.Uri): RewardSettings {
  const entry = parseEntrySetting(setting('reward.entry', uri));
  let entryHere: string | undefined;
  if (entry && entry.path) {
    const folder = vscode.workspace.getWorkspaceFolder(uri);
    const target =
      folder && !/^([A-Za-z]:)?[\\/]/.test(entry.path) ? vscode.Uri.joinPath(folder.uri, entry.path) : vscode.Uri.file(entry.path);
    if (target.fsPath === uri.fsPath) entryHere = entry.function;
  } else if (entry) entryHere = entry.function;
  return {
    codeLens: setting('reward.codeLens', uri),
    answer: setting('reward.answer', uri),
    entry: entryHere,
    timeoutSeconds: setting('reward.timeoutSeconds', uri),
  };
}

const CACHE_SIZE = 32;

/**
 * Runs the reward harness on saved files and remembers results by content hash, so CodeLens, the preview panel
 * and diagnostics share one run per saved version.
 */
export class RewardPreviews implements vscode.Disposable {
  private readonly cache = new Map<string, Promise<PreviewOutcome>>();
  private readonly latest = new Map<string, PreviewOutcome>();
  private disposed = false;
  private readonly running = new Map<string, { key: string; controller: AbortController }>();
  private readonly changed = new vscode.EventEmitter<vscode.Uri>();
  /** Fires when a file's preview has a new result. */
  readonly onDidChange = this.changed.event;

  constructor(
    private readonly services: Services,
    private readonly script: string,
  ) {}

  /** The last finished result for a file, if any. */
  last(uri: vscode.Uri): PreviewOutcome | undefined {
    return this.latest.get(uri.toString());
  }

  /** The preview of the file as saved on disk; runs the harness only when content or settings changed. */
  async preview(uri: vscode.Uri): Promise<PreviewOutcome> {
    const settings = rewardSettings(uri);
    const [content, python] = await Promise.all([vscode.workspace.fs.readFile(uri), findPython(uri)]);
    const key = createHash('sha256')
      .update(content)
      .update(JSON.stringify([uri.fsPath, settings.answer, settings.entry, settings.timeoutSeconds, python.path]))
      .digest('hex');
    let run = this.cache.get(key);
    if (!run) {
      // A newer version of the file supersedes a run still going on the older one: stop it.
      const previous = this.running.get(uri.toString());
      if (previous) {
        previous.controller.abort();
        this.cache.delete(previous.key);
      }
      const controller = new AbortController();
      this.running.set(uri.toString(), { key, controller });
      run = this.run(uri, python.path, settings, controller.signal).finally(() => {
        if (this.running.get(uri.toString())?.controller === controller) this.running.delete(uri.toString());
      });
      this.cache.set(key, run);
      while (this.cache.size > CACHE_SIZE) this.cache.delete(this.cache.keys().next().value!);
    }
    const outcome = await run;
    // Superseded while waiting: answer with the newer run instead.
    if (!outcome.result.ok && outcome.result.error === 'cancelled' && !this.disposed) return this.preview(uri);
    if (this.latest.get(uri.toString()) !== outcome) {
      this.latest.set(uri.toString(), outcome);
      this.changed.fire(uri);
    }
    return outcome;
  }

  private async run(uri: vscode.Uri, python: string, settings: RewardSettings, signal: AbortSignal): Promise<PreviewOutcome> {
    const output = this.services.output;
    const name = vscode.workspace.asRelativePath(uri);
    output.info(`Reward preview: running ${name} with ${python}`);
    const outcome = await vscode.window.withProgress(
      { location: vscode.ProgressLocation.Window, title: `MTRL: previewing the reward in ${name}` },
      () =>
        previewReward({
          python,
          script: this.script,
          file: uri.fsPath,
          entry: settings.entry,
          answer: settings.answer,
          timeoutMs: settings.timeoutSeconds * 1000,
          signal,
          onStderr: (text) => text.trimEnd() && output.info(`[${name}] ${text.trimEnd()}`),
        }),
    );
    if (!outcome.result.ok && outcome.result.error !== 'cancelled') output.warn(`Reward preview of ${name}: ${outcome.result.message}`);
    return outcome;
  }

  /** Forgets results so the next request runs again (settings or interpreter changed). */
  clear(): void {
    this.cache.clear();
  }

  dispose(): void {
    this.disposed = true;
    for (const { controller } of this.running.values()) controller.abort();
    this.changed.dispose();
  }
}
