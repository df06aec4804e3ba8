import * as vscode from 'vscode';
import { setting } from './settings';

/** The interpreter that runs user Python (reward harness, agent lint) and where it came from. */
interface PythonInterpreter {
  path: string;
  source: 'python-extension' | 'setting' | 'default';
}

const PYTHON_EXTENSION_ID = 'ms-python.python';

/** The Python extension's active interpreter when it is installed, else `mtrl.python.path`, else `python3`. */
export async function findPython(resource?: vscode.Uri): Promise<PythonInterpreter> {
  // The interpreter may be the folder's own (a .venv, a settings path): nothing of an untrusted folder runs.
  if (!vscode.workspace.isTrusted)
    throw new Error('This folder is not trusted: MTRL runs no Python for it until you trust it (Manage Workspace Trust).');
  if (vscode.extensions.getExtension(PYTHON_EXTENSION_ID)) {
    try {
      // Loaded lazily: the Python extension's API module is only needed when that extension exists.
      const { PythonExtension } = await import('@vscode/python-extension');
      const api = await PythonExtension.api();
      const active = api.environments.getActiveEnvironmentPath(resource);
      const resolved = await api.environments.resolveEnvironment(active);
      const executable = resolved?.executable.uri?.fsPath;
      if (executable) return { path: executable, source: 'python-extension' };
    } catch {
      // Fall through to the setting: a broken Python extension must not stop the preview.
    }
  }
  const configured = setting('python.path', resource);
  if (configured) return { path: configured, source: 'setting' };
  return { path: 'python3', source: 'default' };
}
