import * as vscode from 'vscode';
import { AwsClients } from '../../aws/clients';
import { explainerFor } from '../../aws/errors';
import type { Services } from '../services';
import type { Settings } from '../settings';
import { registerAwsCommands } from './commands';
import { readAwsSettings } from './settings';
import { AwsStatusBar } from './statusBar';

/** The AWS part of Services: cached clients that follow the settings, and an event fired after they change. */
export function createAwsServices(
  context: vscode.ExtensionContext,
  settings: Settings,
): Pick<Services, 'aws' | 'onDidChangeAws' | 'explain'> {
  const aws = new AwsClients(readAwsSettings);
  const changed = new vscode.EventEmitter<void>();
  context.subscriptions.push(
    changed,
    { dispose: () => aws.reset() },
    // Settings take effect without reload: new clients on the next call, and trees refresh on the event.
    settings.onDidChange(['aws'], () => {
      aws.reset();
      changed.fire();
    }),
  );
  return { aws, onDidChangeAws: changed.event, explain: explainerFor(() => aws.current) };
}

/** The status-bar item and the profile / region commands. */
export function register(services: Services): void {
  const bar = new AwsStatusBar(() => services.aws.current);
  services.context.subscriptions.push(
    bar,
    services.onDidChangeAws(() => bar.update()),
  );
  registerAwsCommands(services);
}
