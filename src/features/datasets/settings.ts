import * as vscode from 'vscode';
import { formatFromName, roleFromName, type DatasetConvention, type DatasetFormat, type DatasetRole } from '../../core/dataset';
import { partnerName } from '../../services/datasets/pairing';
import { setting } from '../settings';

interface DatasetSettings {
  batchSize: number;
  include: string[];
  train?: vscode.Uri;
  validation?: vscode.Uri;
  convention: DatasetConvention;
}

// Files that match the name patterns but are never datasets: job files, manifests, editor settings.
/** An IAM policy (a JSON object with a top-level "Statement") is never a dataset, whatever its name says: the role lint owns it. */
const POLICY_DOCUMENT = /^\uFEFF?\s*\{[\s\S]{0,2000}?"Statement"\s*:/;

const NEVER = ['**/*.mtrl.json', '**/package.json', '**/package-lock.json', '**/tsconfig*.json', '**/.vscode/**', '**/node_modules/**'];

/** A setting path as a URI: absolute, or relative to the workspace folder of `scope`. */
function resolve(path: string | undefined, scope?: vscode.Uri): vscode.Uri | undefined {
  if (!path?.trim()) return undefined;
  if (/^([a-zA-Z]:)?[\\/]/.test(path)) return vscode.Uri.file(path);
  const folder = (scope && vscode.workspace.getWorkspaceFolder(scope)) ?? vscode.workspace.workspaceFolders?.[0];
  return folder ? vscode.Uri.joinPath(folder.uri, path) : undefined;
}

export function readDatasetSettings(scope?: vscode.Uri): DatasetSettings {
  return {
    batchSize: setting('datasets.batchSize', scope),
    include: setting('datasets.include', scope),
    train: resolve(setting('datasets.train', scope), scope),
    validation: resolve(setting('datasets.validation', scope), scope),
    convention: setting('datasets.convention', scope) as DatasetConvention,
  };
}

/** The formats the editor validates as the user types; Parquet is binary and goes through the command. */
export function editorFormat(uri: vscode.Uri): Exclude<DatasetFormat, 'parquet'> | undefined {
  const format = formatFromName(uri.path);
  return format === 'parquet' ? undefined : format;
}

/** Whether an open document is a dataset to validate: a text format, matched by `mtrl.datasets.include` (or named in train/validation). */
export function isDatasetDocument(document: vscode.TextDocument, settings: DatasetSettings): boolean {
  if (!editorFormat(document.uri)) return false;
  const key = document.uri.toString();
  if (key === settings.train?.toString() || key === settings.validation?.toString()) return true;
  if (NEVER.some((pattern) => vscode.languages.match({ pattern }, document) > 0)) return false;
  if (editorFormat(document.uri) === 'json' && POLICY_DOCUMENT.test(document.getText(new vscode.Range(0, 0, 100, 0)))) return false;
  return settings.include.some((pattern) => vscode.languages.match({ pattern }, document) > 0);
}

/** A file's role: from `mtrl.datasets.train`/`validation`, else from its name. */
export function roleOf(uri: vscode.Uri, settings: DatasetSettings): DatasetRole | undefined {
  if (uri.toString() === settings.train?.toString()) return 'training';
  if (uri.toString() === settings.validation?.toString()) return 'validation';
  return roleFromName(uri.path);
}

/** The other file of a training/validation pair: from the settings, else a `train*`/`val*` file in the same folder. */
export async function partnerOf(
  uri: vscode.Uri,
  role: DatasetRole | undefined,
  settings: DatasetSettings,
): Promise<vscode.Uri | undefined> {
  if (role !== 'training' && role !== 'validation') return undefined;
  const configured = role === 'validation' ? settings.train : settings.validation;
  if (configured && (settings.train?.toString() === uri.toString() || settings.validation?.toString() === uri.toString()))
    return configured;
  const folder = vscode.Uri.joinPath(uri, '..');
  let entries: [string, vscode.FileType][];
  try {
    entries = await vscode.workspace.fs.readDirectory(folder);
  } catch {
    return undefined;
  }
  const files = entries.filter(([, type]) => type === vscode.FileType.File).map(([name]) => name);
  const partner = partnerName(uri.path, role, files);
  return partner ? vscode.Uri.joinPath(folder, partner) : undefined;
}
