// The Getting Started walkthrough (#41) as data: each step's button runs a command the product registers, the step
// ticks when that command runs, and a command that asks a question keeps it open when the walkthrough takes the focus
// back as it ticks. The real workbench shows one click path and the page at 900 px (test/host/ui/walkthrough.mjs).
import { strict as assert } from 'node:assert';
import { mkdtempSync, readdirSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { stat } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import path from 'node:path';
import * as vscode from 'vscode';
import { validateDatasetCommand } from '../../../src/features/datasets/validateCommand';
import { pickStep } from '../../../src/features/launch/wizardInput';
import { registerNewScenarioFile } from '../../../src/features/reward/newScenarioFile';
import { pickSource } from '../../../src/features/replay/sources';
import { signalCommands } from '../../../src/features/signal/commands';
import { pickRuntime } from '../../../src/features/smoke/runtimePicker';
import { harness } from '../vscode/stub';

const root = path.resolve(__dirname, '../../..');
const manifest = JSON.parse(readFileSync(path.join(root, 'package.json'), 'utf8')) as {
  contributes: {
    commands: { command: string }[];
    views: Record<string, { id: string }[]>;
    walkthroughs: { id: string; steps: { id: string; description: string; completionEvents: string[] }[] }[];
  };
};
const steps = manifest.contributes.walkthroughs[0]!.steps;
const contributed = new Set(manifest.contributes.commands.map((c) => c.command));
const views = new Set(Object.values(manifest.contributes.views).flatMap((list) => list.map((v) => v.id)));

/** Every TypeScript file under src/, read once: where a command is registered. */
const sources = (function walk(dir: string): string[] {
  return readdirSync(dir, { withFileTypes: true }).flatMap((e) =>
    e.isDirectory() ? walk(path.join(dir, e.name)) : e.name.endsWith('.ts') ? [readFileSync(path.join(dir, e.name), 'utf8')] : [],
  );
})(path.join(root, 'src'));

/** The step's buttons: `[label](command:id)` links in its description. */
const buttons = (description: string) =>
  [...description.matchAll(/\[([^\]]+)\]\(command:([\w.]+)\)/g)].map(([, label, id]) => ({ label, id }));

describe('the Getting Started walkthrough', () => {
  it('lists the eight steps a new user takes, in order', () => {
    assert.deepEqual(
      steps.map((s) => s.id),
      ['connect', 'jobs', 'dataset', 'smoke', 'signal', 'reward', 'replay', 'launch'],
    );
  });

  for (const step of steps) {
    it(`step ${step.id}: each button runs a command the product registers, and running it ticks the step`, () => {
      const links = buttons(step.description);
      assert.ok(links.length > 0, `step ${step.id} has no button`);
      for (const { label, id } of links) {
        const focus = /^(.+)\.focus$/.exec(id)?.[1];
        if (focus) assert.ok(views.has(focus), `${label}: ${id} focuses no contributed view`);
        else {
          assert.ok(contributed.has(id), `${label}: ${id} is not a contributed command`);
          assert.ok(
            sources.some((s) => s.includes(`registerCommand('${id}'`)),
            `${label}: ${id} is registered nowhere under src/`,
          );
        }
        assert.ok(step.completionEvents.includes(`onCommand:${id}`), `${label}: running ${id} does not tick step ${step.id}`);
      }
    });
  }
});

/** A quick pick the feature builds: what it was set to ask, dismissed (Escape) as soon as it shows. */
function dismissedQuickPick() {
  const shown: Record<string, unknown>[] = [];
  const create = () => {
    const hide = new vscode.EventEmitter<void>();
    const pick: Record<string, unknown> = {
      items: [],
      buttons: [],
      selectedItems: [],
      onDidHide: hide.event,
      onDidAccept: () => new vscode.Disposable(() => {}),
      onDidTriggerButton: () => new vscode.Disposable(() => {}),
      onDidChangeValue: () => new vscode.Disposable(() => {}),
      onDidChangeSelection: () => new vscode.Disposable(() => {}),
      show: () => (shown.push(pick), queueMicrotask(() => hide.fire())),
      hide: () => hide.fire(),
      dispose: () => {},
    };
    return pick;
  };
  return { shown, create };
}

describe("the walkthrough steps' questions stay open when the step ticks (ignoreFocusOut)", () => {
  const window = vscode.window as unknown as Record<string, unknown>;
  const saved = { ...window };
  let asked: Record<string, unknown>[];

  beforeEach(() => {
    harness.reset();
    asked = [];
    // Escape on every question, with what it was asked with recorded.
    window.showQuickPick = async (_items: unknown, options?: Record<string, unknown>) => void asked.push(options ?? {});
  });
  afterEach(() => Object.assign(window, saved));

  it('dataset: Validate Dataset asks which dataset, and Escape validates nothing', async () => {
    assert.equal(await validateDatasetCommand({} as never, {} as never), undefined);
    assert.deepEqual(asked, [{ title: 'MTRL: Validate Dataset', placeHolder: 'Which dataset?', ignoreFocusOut: true }]);
  });

  it('signal: Check Learning Signal asks where the rollouts are', async () => {
    const launcher = { deps: { signalChecks: {} } } as never;
    assert.equal(await signalCommands({} as never, launcher, () => undefined).checkSignal(), undefined);
    assert.equal(asked.length, 1);
    assert.equal(asked[0]!.title, 'MTRL: Check Learning Signal');
    assert.equal(asked[0]!.ignoreFocusOut, true);
  });

  it('replay: Open Rollouts asks where the rollouts are logged', async () => {
    assert.equal(await pickSource({} as never), undefined);
    assert.deepEqual(asked, [{ title: 'MTRL: Open Rollouts', placeHolder: 'Where are the rollouts logged?', ignoreFocusOut: true }]);
  });

  it('smoke: Smoke Test Agent Runtime asks which runtime, its list still loading', async () => {
    const quick = dismissedQuickPick();
    window.createQuickPick = quick.create;
    // The runtimes' listing never answers here: the question is asked before it.
    const services = { aws: { current: { region: 'us-east-1' } }, explain: () => '' } as never;
    const listing = pickRuntime(services, { get: () => undefined } as never);
    assert.equal(await listing, undefined);
    assert.equal(quick.shown.length, 1);
    assert.equal(quick.shown[0]!.title, 'MTRL: Smoke Test Agent Runtime');
    assert.equal(quick.shown[0]!.ignoreFocusOut, true);
  });

  it("launch: each of the launch wizard's steps keeps its question open", async () => {
    const quick = dismissedQuickPick();
    window.createQuickPick = quick.create;
    await pickStep({ title: 'MTRL: Launch Training Job', step: 1, totalSteps: 11, items: [], placeholder: 'Base model' });
    assert.equal(quick.shown.length, 1);
    assert.equal(quick.shown[0]!.ignoreFocusOut, true);
  });

  it('reward: New Reward Scenario File opens an untitled scenario file with the template, never over an existing file', async () => {
    // A folder that already holds the first name: the new file takes the next.
    const folder = mkdtempSync(path.join(tmpdir(), 'mtrl-walkthrough-'));
    writeFileSync(path.join(folder, 'reward.mtrl-reward.json'), '{}');
    harness.folder = vscode.Uri.file(folder);
    const opened: string[] = [];
    const inserted: string[] = [];
    const workspace = vscode.workspace as unknown as Record<string, unknown>;
    const open = workspace.openTextDocument;
    const fs = workspace.fs as Record<string, unknown>;
    fs.stat = (uri: vscode.Uri) => stat(uri.fsPath);
    workspace.openTextDocument = async (uri: vscode.Uri) => (opened.push(uri.toString()), { uri, getText: () => '' });
    window.showTextDocument = async () => ({
      edit: async (build: (edit: { insert(at: unknown, text: string): void }) => void) =>
        build({ insert: (_at, text) => inserted.push(text) }),
    });
    const subscriptions: vscode.Disposable[] = [];
    try {
      registerNewScenarioFile({ subscriptions } as never);
      await vscode.commands.executeCommand('mtrl.newRewardScenarioFile');
    } finally {
      workspace.openTextDocument = open;
      delete fs.stat;
      rmSync(folder, { recursive: true });
      subscriptions.forEach((d) => d.dispose());
    }
    assert.equal(opened.length, 1);
    assert.equal(opened[0], `untitled:${folder}/reward-2.mtrl-reward.json`);
    assert.equal(inserted.length, 1);
    const template = JSON.parse(inserted[0]!) as { scenarios: Record<string, unknown>; expect: string[] };
    assert.ok(Object.keys(template.scenarios).length >= 2, 'the template names at least two scenarios');
    assert.ok(template.expect.length > 0, 'the template says what the reward should say');
  });
});
