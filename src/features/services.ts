import type * as vscode from 'vscode';

/** What every feature's register() receives: the extension context and the shared services, built once in extension.ts. */
export interface Services {
  context: vscode.ExtensionContext;
  /** The one "MTRL" output channel. */
  output: vscode.LogOutputChannel;
}
