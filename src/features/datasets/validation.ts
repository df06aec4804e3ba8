import * as vscode from 'vscode';
import { errorCount, type DatasetReport } from '../../core/dataset';
import type { JobFileText } from '../../services/datasets/batchSize';
import type { DatasetSource } from '../../services/datasets/sources';
import { validateDatasets, withOverlap, type FileReport } from '../../services/datasets/validate';
import type { Services } from '../services';
import { reportDiagnostics } from './diagnostics';
import { editorFormat, isDatasetDocument, partnerOf, readDatasetSettings, roleOf } from './settings';

const DEBOUNCE_MS = 300;

class Superseded extends Error {}

interface DatasetState {
  uri: vscode.Uri;
  report: DatasetReport;
  errors: number;
}

/** Validates dataset documents on open, change (debounced, in slices that yield to typing) and save, and publishes diagnostics for them and their train/validation partner. */
export class DatasetValidation implements vscode.Disposable {
  readonly collection = vscode.languages.createDiagnosticCollection('mtrl-datasets');
  private readonly states = new Map<string, DatasetState>();
  private readonly timers = new Map<string, NodeJS.Timeout>();
  private readonly runs = new Map<string, AbortController>();
  private readonly changed = new vscode.EventEmitter<vscode.Uri>();
  readonly onDidValidate = this.changed.event;

  constructor(private readonly services: Services) {}

  state(uri: vscode.Uri): DatasetState | undefined {
    return this.states.get(uri.toString());
  }

  isDataset(document: vscode.TextDocument): boolean {
    return isDatasetDocument(document, readDatasetSettings(document.uri));
  }

  schedule(document: vscode.TextDocument, delay = DEBOUNCE_MS): void {
    if (this.isDataset(document)) this.scheduleUri(document.uri, delay);
  }

  private scheduleUri(uri: vscode.Uri, delay: number): void {
    const key = uri.toString();
    clearTimeout(this.timers.get(key));
    this.runs.get(key)?.abort();
    this.timers.set(
      key,
      setTimeout(() => {
        this.timers.delete(key);
        void this.validate(uri);
      }, delay),
    );
  }

  /**
   * A file changed or appeared on disk. An open document follows through its own events; a closed file that has
   * diagnostics (checked before, or the partner of a checked file) is checked again, so they never go stale.
   */
  fileChanged(uri: vscode.Uri): void {
    if (vscode.workspace.textDocuments.some((d) => d.uri.toString() === uri.toString())) return;
    if (this.collection.has(uri)) this.scheduleUri(uri, DEBOUNCE_MS);
  }

  /** A file was deleted: its diagnostics go, and the files beside it that had some are checked again (their overlap pointed at it). */
  fileDeleted(uri: vscode.Uri): void {
    if (!this.collection.has(uri)) return;
    this.forget(uri);
    this.collection.delete(uri);
    this.changed.fire(uri);
    const folder = vscode.Uri.joinPath(uri, '..').toString();
    this.collection.forEach((other) => {
      if (vscode.Uri.joinPath(other, '..').toString() === folder) this.scheduleUri(other, 0);
    });
  }

  cancel(uri: vscode.Uri): void {
    this.runs.get(uri.toString())?.abort();
  }

  forget(uri: vscode.Uri): void {
    const key = uri.toString();
    clearTimeout(this.timers.get(key));
    this.runs.get(key)?.abort();
    this.states.delete(key);
  }

  /** Validates a file (and its partner), publishing diagnostics; resolves when done or superseded. */
  async validate(uri: vscode.Uri): Promise<DatasetState | undefined> {
    const key = uri.toString();
    this.runs.get(key)?.abort();
    const controller = new AbortController();
    this.runs.set(key, controller);
    const signal = controller.signal;
    const settings = readDatasetSettings(uri);
    const role = roleOf(uri, settings);
    // Yields to the editor between slices, and stops when a newer edit superseded this run.
    const tick = async () => {
      await new Promise((resolve) => setImmediate(resolve));
      if (signal.aborted) throw new Superseded();
    };
    try {
      const partner = await partnerOf(uri, role, settings);
      const uris = partner ? [uri, partner] : [uri];
      // A partner holds the other role of the pair.
      const roles = [role, role === 'training' ? 'validation' : 'training'] as const;
      const files = await Promise.all(uris.map(async (u, i) => ({ source: await sourceOf(u), role: roles[i] })));
      const { files: reports } = await validateDatasets(files, {
        batchSize: {
          jobFiles: workspaceJobFiles,
          otherwise: { batchSize: settings.batchSize, source: 'the mtrl.datasets.batchSize setting' },
        },
        convention: settings.convention,
        tick,
      });
      reports.forEach((file, i) => this.publish(uris[i], file));
      return this.states.get(key);
    } catch (error) {
      if (error instanceof Superseded || signal.aborted) return undefined;
      this.services.output.error(`Dataset validation of ${uri.fsPath} failed: ${error instanceof Error ? error.message : String(error)}`);
      return undefined;
    } finally {
      if (this.runs.get(key) === controller) this.runs.delete(key);
    }
  }

  /** The file's diagnostics: its findings, with its train/validation overlap listed first. */
  private publish(uri: vscode.Uri, file: FileReport): void {
    const { report } = file;
    const document = vscode.workspace.textDocuments.find((d) => d.uri.toString() === uri.toString());
    this.collection.set(uri, reportDiagnostics(report, file.overlap.findings, uri, document));
    const errors = errorCount(withOverlap(file));
    this.states.set(uri.toString(), { uri, report, errors });
    this.changed.fire(uri);
  }

  dispose(): void {
    for (const t of this.timers.values()) clearTimeout(t);
    for (const r of this.runs.values()) r.abort();
    this.collection.dispose();
    this.changed.dispose();
  }
}

/** An open document by its text, a file on disk by its path (Parquet read by position), any other file by its bytes. */
async function sourceOf(uri: vscode.Uri): Promise<DatasetSource> {
  const document = vscode.workspace.textDocuments.find((d) => d.uri.toString() === uri.toString());
  if (document && editorFormat(uri)) return { name: uri.fsPath, text: document.getText() };
  if (uri.scheme === 'file') return uri.fsPath;
  return { name: uri.fsPath, bytes: await vscode.workspace.fs.readFile(uri) };
}

/** The workspace's job files, so a 64-row file is judged at the batch size of the job that trains it (32), not the setting's 128. */
async function workspaceJobFiles(): Promise<JobFileText[]> {
  const found = await vscode.workspace.findFiles('**/*.mtrl.json', '**/node_modules/**', 50);
  return Promise.all(
    found.map(async (file) => ({
      name: vscode.workspace.asRelativePath(file),
      text: new TextDecoder().decode(await vscode.workspace.fs.readFile(file).then(undefined, () => new Uint8Array())),
    })),
  );
}
