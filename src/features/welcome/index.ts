import * as vscode from 'vscode';
import type { Services } from '../services';
import { vscodeSetting } from '../settings';
import { TEST_HOOKS_VARIABLE } from '../testHooks';

/** The walkthrough's id as package.json contributes it; VS Code names it `<publisher>.<name>#<id>`. */
export const WALKTHROUGH = 'gettingStarted';
const OPENED_KEY = 'mtrl.walkthroughOpened';

/** Opens the Getting Started walkthrough. */
function openWalkthrough(extensionId: string): Thenable<unknown> {
  return vscode.commands.executeCommand('workbench.action.openWalkthrough', `${extensionId}#${WALKTHROUGH}`, false);
}

/**
 * The first activation opens the walkthrough once, unless the user turned off VS Code's own "open walkthroughs on
 * install" (machine-scoped: a remote window reads it from the Remote settings). Logs what it did; resolves with whether it opened.
 */
async function openOnFirstActivation({ context, output }: Services): Promise<boolean> {
  if (context.globalState.get<boolean>(OPENED_KEY)) {
    output.info('Getting Started walkthrough not opened: it opened on an earlier first activation (MTRL: Get Started opens it)');
    return false;
  }
  if (!vscodeSetting('workbench.welcomePage', 'walkthroughs.openOnInstall', true)) {
    output.info('Getting Started walkthrough not opened: VS Code\'s "Open walkthroughs on install" is off (MTRL: Get Started opens it)');
    return false;
  }
  await context.globalState.update(OPENED_KEY, true);
  await openWalkthrough(context.extension.id);
  output.info('Getting Started walkthrough opened (first activation)');
  return true;
}

/** `MTRL: Get Started` opens the walkthrough; the first activation opens it by itself. */
export function register(services: Services, env: NodeJS.ProcessEnv = process.env): void {
  const { context } = services;
  context.subscriptions.push(vscode.commands.registerCommand('mtrl.getStarted', () => openWalkthrough(context.extension.id)));
  // Under the host harness the walkthrough opens only when a check asks (its tab would hide the view a check reads).
  if (env[TEST_HOOKS_VARIABLE] !== '1') void openOnFirstActivation(services);
}
