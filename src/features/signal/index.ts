import * as vscode from 'vscode';
import { SIGNAL_VIEW, type PersistedSignal } from '../../shared/signal';
import { restoreViewPanels } from '../../webview-kit/panel';
import type { Launcher } from '../launch/launcher';
import { openBoards } from '../replay/board';
import type { Services } from '../services';
import type { TestProbes } from '../testHooks';
import type { SignalCommands } from './commands';

/** The learning-signal check: Check Learning Signal… (a file, folder, evaluation job, a cloud check or a kept one) and Show Learning Signal Report. */
export function register(services: Services, launcher: Launcher): Pick<TestProbes, 'signalView'> {
  let made: SignalCommands | undefined;
  /** The command bodies, loaded on first use: the build maps './commands' to dist/signal.js, so activation never reads them. */
  const commands = (): SignalCommands => {
    // eslint-disable-next-line @typescript-eslint/no-require-imports
    made ??= (require('./commands') as typeof import('./commands')).signalCommands(
      services,
      launcher,
      () => openBoards()?.active?.firstRead,
    );
    return made;
  };
  services.context.subscriptions.push(
    vscode.commands.registerCommand('mtrl.checkLearningSignal', (arg?: unknown) => commands().checkSignal(arg)),
    vscode.commands.registerCommand('mtrl.showLearningSignalReport', (key?: unknown) => commands().showReport(key)),
    vscode.commands.registerCommand('mtrl.exportSignalReport', (given?: unknown) => commands().exportReport(given)),
    restoreViewPanels<PersistedSignal>(SIGNAL_VIEW, (panel, state) => commands().restore(panel, state)),
  );
  // For tests: what the report in front shows, as the page reported drawing it.
  return { signalView: () => commands().signalView() };
}
