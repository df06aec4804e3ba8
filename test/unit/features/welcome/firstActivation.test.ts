// The walkthrough on a user's first activation (#41) as data: opened once, not again, and not at all when VS Code's
// "Open walkthroughs on install" is off. The real first window (no test hooks) opens it: test/host/lib/first-run.mjs.
import { strict as assert } from 'node:assert';
import * as vscode from 'vscode';
import { register, WALKTHROUGH } from '../../../../src/features/welcome';
import { harness } from '../../vscode/stub';

const EXTENSION = 'mtrl.mtrl-workbench';

/** One activation of the welcome feature in a user's profile (`saved`: the global state kept between windows). */
async function activate(saved: Map<string, unknown>, env: NodeJS.ProcessEnv = {}) {
  const logged: string[] = [];
  const opened: unknown[][] = [];
  const subscriptions: vscode.Disposable[] = [
    vscode.commands.registerCommand('workbench.action.openWalkthrough', (...args: unknown[]) => void opened.push(args)),
  ];
  const context = {
    subscriptions,
    extension: { id: EXTENSION },
    globalState: { get: (key: string) => saved.get(key), update: async (key: string, value: unknown) => void saved.set(key, value) },
  };
  const output = { info: (line: string) => logged.push(line) };
  register({ context, output } as never, env);
  // The decision is logged last: wait for it, as the first-run check waits for the product's log.
  for (let turn = 0; turn < 100 && !logged.some((l) => l.startsWith('Getting Started walkthrough')); turn++)
    await new Promise(setImmediate);
  subscriptions.forEach((d) => d.dispose());
  return { logged, opened };
}

describe('the walkthrough on the first activation', () => {
  beforeEach(() => harness.reset());

  it("opens on a user's first activation, and not in the next window", async () => {
    const saved = new Map<string, unknown>();
    const first = await activate(saved);
    assert.deepEqual(first.opened, [[`${EXTENSION}#${WALKTHROUGH}`, false]]);
    assert.deepEqual(first.logged, ['Getting Started walkthrough opened (first activation)']);
    const next = await activate(saved);
    assert.deepEqual(next.opened, []);
    assert.match(next.logged.join('\n'), /not opened: it opened on an earlier first activation/);
  });

  it('does not open when VS Code\'s "Open walkthroughs on install" is off, and opens once it is turned on', async () => {
    const saved = new Map<string, unknown>();
    harness.settings['workbench.welcomePage.walkthroughs.openOnInstall'] = false;
    const off = await activate(saved);
    assert.deepEqual(off.opened, []);
    assert.match(off.logged.join('\n'), /not opened: VS Code's "Open walkthroughs on install" is off/);
    harness.settings['workbench.welcomePage.walkthroughs.openOnInstall'] = true;
    assert.equal((await activate(saved)).opened.length, 1, 'a first activation with the setting off counts as none');
  });

  it('under the host harness (test hooks on) opens only when a check asks', async () => {
    const { opened, logged } = await activate(new Map(), { MTRL_TEST_HOOKS: '1' });
    assert.deepEqual(opened, []);
    assert.deepEqual(logged, []);
  });
});
