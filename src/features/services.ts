import type * as vscode from 'vscode';
import type { AwsClients } from '../aws/clients';
import type { Stores } from './stores';
import type { Explainer } from '../aws/errors';
import type { Settings } from './settings';

/** What every feature's register() receives: the extension context and the shared services, built once in extension.ts. */
export interface Services {
  context: vscode.ExtensionContext;
  /** The one "MTRL" output channel. */
  output: vscode.LogOutputChannel;
  /** SDK clients for the current profile, region and endpoint (`mtrl.aws.*`), rebuilt after a settings change. */
  aws: AwsClients;
  /** Fires after the AWS profile, region, regions or endpoint changed: trees refresh on it. */
  onDidChangeAws: vscode.Event<void>;
  /** What the extension keeps between sessions (smoke results, recent uploads, wizard answers), typed. */
  stores: Stores;
  /** Every `mtrl.*` setting, typed, with change events. */
  settings: Settings;
  /** An error of `action` as a sentence naming the current profile, region and endpoint. */
  explain: Explainer;
}
