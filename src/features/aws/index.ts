import * as vscode from 'vscode';
import { AwsClients } from '../../aws/clients';
import { explainerFor } from '../../aws/errors';
import type { Services } from '../services';
import type { ResetForTests } from '../testHooks';
import type { Settings } from '../settings';
import { registerAwsCommands } from './commands';
import { onDidChangeWindowEndpoint, readAwsSettings } from './settings';
import { registerEmulatorCommand } from './emulator';
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
    onDidChangeWindowEndpoint(() => {
      aws.reset();
      changed.fire();
    }),
  );
  return { aws, onDidChangeAws: changed.event, explain: explainerFor(() => aws.current) };
}

/** The status-bar item, the profile / region commands and Try the Local Emulator (its reset for the UI checks returned). */
export function register(services: Services): ResetForTests {
  const bar = new AwsStatusBar(() => services.aws.current);
  services.context.subscriptions.push(
    bar,
    services.onDidChangeAws(() => bar.update()),
  );
  registerAwsCommands(services);
  return registerEmulatorCommand(services);
}
