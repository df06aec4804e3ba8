import * as vscode from 'vscode';
import type { Services } from '../services';
import { vscodeSetting } from '../settings';
import { TEST_HOOKS_VARIABLE } from '../testHooks';

/** The walkthrough's id as package.json contributes it; VS Code names it `<publisher>.<name>#<id>`. */
export const WALKTHROUGH = 'gettingStarted';
const OPENED_KEY = 'mtrl.walkthroughOpened';
/** Test-only (registered under the host harness alone): forget the walkthrough was opened and run the first activation's opening again. */
const FIRST_ACTIVATION_FOR_TESTS = 'mtrl.test.firstActivation';

/** Opens the Getting Started walkthrough. */
function openWalkthrough(extensionId: string): Thenable<unknown> {
  return vscode.commands.executeCommand('workbench.action.openWalkthrough', `${extensionId}#${WALKTHROUGH}`, false);
}

/**
 * The first activation opens the walkthrough once, unless the user turned off VS Code's own "open walkthroughs on
 * install" (the host harness does, so its checks start without it). Resolves with whether it opened.
 */
async function openOnFirstActivation(context: vscode.ExtensionContext, honourSetting = true): Promise<boolean> {
  if (context.globalState.get<boolean>(OPENED_KEY)) return false;
  if (honourSetting && !vscodeSetting('workbench.welcomePage', 'walkthroughs.openOnInstall', true)) return false;
  await context.globalState.update(OPENED_KEY, true);
  await openWalkthrough(context.extension.id);
  return true;
}

/** `MTRL: Get Started` opens the walkthrough; the first activation opens it by itself. */
export function register(services: Services, env: NodeJS.ProcessEnv = process.env): void {
  const { context } = services;
  context.subscriptions.push(vscode.commands.registerCommand('mtrl.getStarted', () => openWalkthrough(context.extension.id)));
  if (env[TEST_HOOKS_VARIABLE] === '1')
    context.subscriptions.push(
      vscode.commands.registerCommand(FIRST_ACTIVATION_FOR_TESTS, async () => {
        await context.globalState.update(OPENED_KEY, undefined);
        return openOnFirstActivation(context, false);
      }),
    );
  // Under the host harness the walkthrough opens only when a check asks (its tab would hide the view a check reads).
  if (env[TEST_HOOKS_VARIABLE] !== '1') void openOnFirstActivation(context);
}
