import * as vscode from 'vscode';
import {
  errorCount,
  parquetFile,
  trainValOverlap,
  validateDataset,
  validateParquet,
  validateText,
  type DatasetReport,
  type DatasetRole,
  type Finding,
  type RunOptions,
} from '../../core/dataset';
import { batchSizeFromJobFiles, type DatasetBatchSize } from '../../core/jobs/datasetBatch';
import type { Services } from '../services';
import { offThreadParquet } from '../../services/parquet/offThread';
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
    try {
      const partner = await partnerOf(uri, role, settings);
      const training = role === 'training' ? uri : role === 'validation' ? partner : undefined;
      const fromJob = training ? await batchSizeFromWorkspaceJobFiles(training) : undefined;
      const base = {
        batchSize: fromJob?.batchSize ?? settings.batchSize,
        batchSizeSource: fromJob?.source ?? 'the mtrl.datasets.batchSize setting',
        convention: settings.convention,
      };
      if (!partner) {
        this.publish(uri, await this.run(uri, { ...base, role }, signal), []);
      } else {
        const [train, val] = role === 'training' ? [uri, partner] : [partner, uri];
        const trainReport = await this.run(train, { ...base, role: 'training' }, signal);
        const valReport = await this.run(val, { ...base, role: 'validation', against: trainReport.keyTables, trackKeys: false }, signal);
        const overlap = trainValOverlap(valReport, { training: train.fsPath, validation: val.fsPath });
        this.publish(train, trainReport, overlap.training, overlap.count);
        this.publish(val, valReport, overlap.shared ? [...overlap.validation, overlap.shared.finding] : overlap.validation, overlap.count);
      }
      return this.states.get(key);
    } catch (error) {
      if (error instanceof Superseded || signal.aborted) return undefined;
      this.services.output.error(`Dataset validation of ${uri.fsPath} failed: ${error instanceof Error ? error.message : String(error)}`);
      return undefined;
    } finally {
      if (this.runs.get(key) === controller) this.runs.delete(key);
    }
  }

  /** One file from its open document, else from disk; Parquet as bytes. */
  private async run(
    uri: vscode.Uri,
    options: Omit<RunOptions, 'format'> & { role?: DatasetRole },
    signal: AbortSignal,
  ): Promise<DatasetReport> {
    // Yields to the editor between slices, and stops when a newer edit superseded this run.
    const tick = async () => {
      await new Promise((resolve) => setImmediate(resolve));
      if (signal.aborted) throw new Superseded();
    };
    const document = vscode.workspace.textDocuments.find((d) => d.uri.toString() === uri.toString());
    const format = editorFormat(uri);
    if (document && format) return validateText(document.getText(), { ...options, format, tick });
    if (!format && uri.scheme === 'file') {
      // Parquet on disk is read by position: the footer, then the rows being checked.
      const file = await parquetFile(uri.fsPath);
      try {
        return await validateParquet(file, { ...options, format: 'parquet', tick, parquetDecoder: offThreadParquet() });
      } finally {
        await file.close();
      }
    }
    const bytes = await vscode.workspace.fs.readFile(uri);
    async function* once() {
      yield bytes;
    }
    return validateDataset(once(), { ...options, format: format ?? 'parquet', tick, parquetDecoder: offThreadParquet() });
  }

  /** `overlaps`: the train/validation overlap errors of the file, listed in `extra` or summarized there. */
  private publish(uri: vscode.Uri, report: DatasetReport, extra: Finding[], overlaps = 0): void {
    const document = vscode.workspace.textDocuments.find((d) => d.uri.toString() === uri.toString());
    this.collection.set(uri, reportDiagnostics(report, extra, uri, document));
    const errors = errorCount(report) + overlaps;
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

/** The batch size of a workspace job file whose training channel names this dataset, so a 64-row file is judged at the job's 32, not the setting's 128. */
async function batchSizeFromWorkspaceJobFiles(uri: vscode.Uri): Promise<DatasetBatchSize | undefined> {
  const found = await vscode.workspace.findFiles('**/*.mtrl.json', '**/node_modules/**', 50);
  const jobFiles = await Promise.all(
    found.map(async (file) => ({
      name: vscode.workspace.asRelativePath(file),
      text: new TextDecoder().decode(await vscode.workspace.fs.readFile(file).then(undefined, () => new Uint8Array())),
    })),
  );
  return batchSizeFromJobFiles(uri.path, jobFiles);
}
