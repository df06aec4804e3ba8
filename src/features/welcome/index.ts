import * as vscode from 'vscode';
import type { Services } from '../services';
import { vscodeSetting } from '../settings';
import { TEST_HOOKS_VARIABLE } from '../testHooks';

/** The walkthrough's id as package.json contributes it; VS Code names it `<publisher>.<name>#<id>`. */
export const WALKTHROUGH = 'gettingStarted';
const OPENED_KEY = 'mtrl.walkthroughOpened';

/** How long VS Code may take to show a walkthrough's tab after the command returns (it opens the editor without waiting). */
const TAB_WITHIN_MS = 10_000;

/**
 * Opens the Getting Started walkthrough. VS Code 1.103 shows its own walkthrough instead ("Walkthrough: Setup VS Code
 * Web") the first time in a new profile, and its tab's label does not say so to extensions: there the walkthrough is
 * asked for again once a tab shows, and the second time VS Code shows ours.
 */
async function openWalkthrough(extension: vscode.Extension<unknown>, output: vscode.LogOutputChannel): Promise<void> {
  const open = () => vscode.commands.executeCommand('workbench.action.openWalkthrough', `${extension.id}#${WALKTHROUGH}`, false);
  await open();
  if (!showsOtherWalkthroughFirst(vscode.version)) return;
  await walkthroughTab();
  output.info(`VS Code ${vscode.version} may show its own walkthrough first: asked for ours again`);
  await open();
}

/** VS Code before 1.104 (1.103 is the oldest we test) may show its own walkthrough when asked for ours the first time. */
function showsOtherWalkthroughFirst(version: string): boolean {
  const [major, minor] = version.split('.').map(Number);
  return major === 1 && minor < 104;
}

/** Resolves once the active tab is a walkthrough's, or after TAB_WITHIN_MS. */
function walkthroughTab(): Promise<void> {
  const shown = () => /^(Welcome|Walkthrough: )/.test(vscode.window.tabGroups.activeTabGroup.activeTab?.label ?? '');
  if (shown()) return Promise.resolve();
  return new Promise((resolve) => {
    const done = () => {
      clearTimeout(timer);
      subscription.dispose();
      resolve();
    };
    const subscription = vscode.window.tabGroups.onDidChangeTabs(() => shown() && done());
    const timer = setTimeout(done, TAB_WITHIN_MS);
  });
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
  await openWalkthrough(context.extension, output);
  output.info('Getting Started walkthrough opened (first activation)');
  return true;
}

/** `MTRL: Get Started` opens the walkthrough; the first activation opens it by itself. */
export function register(services: Services, env: NodeJS.ProcessEnv = process.env): void {
  const { context } = services;
  context.subscriptions.push(vscode.commands.registerCommand('mtrl.getStarted', () => openWalkthrough(context.extension, services.output)));
  // Under the host harness the walkthrough opens only when a check asks (its tab would hide the view a check reads).
  if (env[TEST_HOOKS_VARIABLE] !== '1') void openOnFirstActivation(services);
}
