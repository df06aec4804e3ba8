import * as vscode from 'vscode';
import type { Services } from '../services';
import { vscodeSetting } from '../settings';

/** The walkthrough's id as package.json contributes it; VS Code names it `<publisher>.<name>#<id>`. */
export const WALKTHROUGH = 'gettingStarted';
const OPENED_KEY = 'mtrl.walkthroughOpened';

/** Opens the Getting Started walkthrough. */
function openWalkthrough(extensionId: string): Thenable<unknown> {
  return vscode.commands.executeCommand('workbench.action.openWalkthrough', `${extensionId}#${WALKTHROUGH}`, false);
}

/**
 * The first activation opens the walkthrough once, unless the user turned off VS Code's own "open walkthroughs on
 * install" (the host harness does, so its checks start without it).
 */
async function openOnFirstActivation(context: vscode.ExtensionContext): Promise<void> {
  if (context.globalState.get<boolean>(OPENED_KEY)) return;
  if (!vscodeSetting('workbench.welcomePage', 'walkthroughs.openOnInstall', true)) return;
  await context.globalState.update(OPENED_KEY, true);
  await openWalkthrough(context.extension.id);
}

/** `MTRL: Get Started` opens the walkthrough; the first activation opens it by itself. */
export function register(services: Services): void {
  const { context } = services;
  context.subscriptions.push(vscode.commands.registerCommand('mtrl.getStarted', () => openWalkthrough(context.extension.id)));
  void openOnFirstActivation(context);
}
