import { strict as assert } from 'node:assert';
import type { JobsBackend } from '../../../../src/services/jobs';
import { JobsModel } from '../../../../src/features/jobs/model';
import type { JobNode, JobsTreeNode } from '../../../../src/features/jobs/nodes';
import { TreeRedraws } from '../../../../src/features/jobs/redraws';

const REGION = 'us-east-1';
const nextTurn = () => new Promise<void>((resolve) => setImmediate(resolve));

/**
 * The contract VS Code keeps with a tree data provider (as its extension host does it in 1.139): it knows only the items
 * a `getChildren` handed it; a redraw makes it forget the item's descendants (all items for a whole-tree redraw) and ask
 * again a moment later; a reveal resolves the parent chain through `getParent`, asking for children of unknown parents.
 * Asking for the children of an item it does not know is the "No tree item with id" error.
 */
class FakeTreeView {
  private readonly known = new Map<string, JobsTreeNode>();
  private readonly below = new Map<string, string[]>();
  readonly errors: string[] = [];
  private readonly asked: Promise<unknown>[] = [];

  constructor(private readonly getChildren: (node?: JobsTreeNode) => Promise<JobsTreeNode[]>) {}

  /** The workbench asks for an item's children; roots are drawn expanded, so their children are asked for next. */
  async fetch(handle = ''): Promise<void> {
    const parent = handle ? this.known.get(handle) : undefined;
    if (handle && !parent) {
      this.errors.push(`No tree item with id '1/${handle}' found.`);
      return;
    }
    this.forget(handle);
    const nodes = await this.getChildren(parent);
    for (const node of nodes) this.known.set(node.id, node);
    this.below.set(
      handle,
      nodes.map((n) => n.id),
    );
    for (const root of nodes.filter((n) => n.kind === 'root')) this.ask(root.id);
  }

  /** What `onDidChangeTreeData` does. */
  redraw(nodes: JobsTreeNode[] | undefined): void {
    if (!nodes) {
      this.known.clear();
      this.below.clear();
      this.ask('');
      return;
    }
    for (const node of nodes) {
      if (this.known.get(node.id) !== node) continue;
      this.forget(node.id);
      if (node.kind === 'root') this.ask(node.id);
    }
  }

  /** Like VS Code's reveal, it waits for the redraws under way (their round trip to the workbench) first. */
  async reveal(node: JobsTreeNode): Promise<void> {
    await this.settled();
    await this.resolve(node);
  }

  private async resolve(node: JobsTreeNode): Promise<void> {
    const parent = node.kind === 'root' ? undefined : (node.parent as JobsTreeNode);
    if (parent && this.known.get(parent.id) !== parent) await this.resolve(parent);
    if (this.known.get(node.id) !== node) await this.fetch(parent?.id ?? '');
    if (this.known.get(node.id) !== node) this.errors.push(`Cannot resolve tree item for element 1/${node.id}`);
  }

  /** Waits until the workbench has asked for everything it was told to. */
  async settled(): Promise<void> {
    while (this.asked.length) await this.asked.shift();
  }

  private ask(handle: string): void {
    this.asked.push(nextTurn().then(() => this.fetch(handle)));
  }

  private forget(handle: string): void {
    for (const id of this.below.get(handle) ?? []) {
      this.known.delete(id);
      this.forget(id);
    }
    this.below.delete(handle);
  }
}

/** A backend whose listings wait until the test lets them go: a `getChildren` slow on purpose. */
function slowBackend() {
  const waiting: Array<() => void> = [];
  const summary = (name: string) => ({
    name,
    arn: `arn:${name}`,
    category: 'AgentRFT' as const,
    region: REGION,
    status: 'Completed',
    created: new Date(0),
  });
  const backend: Partial<JobsBackend> = {
    listPage: (_region, category) =>
      new Promise((resolve) => waiting.push(() => resolve({ jobs: category === 'AgentRFT' ? [summary('a'), summary('b')] : [] }))),
    describe: async (_r, _c, name) => ({ ...summary(name), transitions: [] }),
  };
  return { backend: backend as JobsBackend, release: () => waiting.splice(0).forEach((go) => go()) };
}

/** The Jobs view's wiring as tree.ts does it, without VS Code: every redraw and reveal through one TreeRedraws. */
function jobsView() {
  const { backend, release } = slowBackend();
  const model = new JobsModel({
    backend,
    regions: () => [REGION],
    explain: () => ({ kind: 'other', sentence: 'x' }),
    hasRollouts: () => false,
  });
  let view: FakeTreeView;
  // The fake view is visible and shows roots expanded, as the Jobs view draws them.
  const redraws = new TreeRedraws<JobsTreeNode>(
    (nodes) => view.redraw(nodes),
    (node) => !node || node.kind === 'root',
  );
  view = new FakeTreeView((node) => redraws.children(node, () => model.getChildren(node)));
  model.onDidChange((node) => redraws.redraw(node && [node]));
  const reveal = async (jobName: string) => {
    const node = (await model.find({ jobName, category: 'AgentRFT', region: REGION })) as JobNode;
    return redraws.reveal(async () => {
      const current = (redraws.handedNode(node.id) as JobNode | undefined) ?? model.listed(node) ?? node;
      await view.reveal(current);
      return current;
    });
  };
  return { model, view, redraws, reveal, release };
}

/** Lets every slow listing go until the view and the reveal are done. */
async function drain(view: FakeTreeView, release: () => void, until: Promise<unknown>): Promise<void> {
  let done = false;
  void until.finally(() => (done = true));
  while (!done) {
    release();
    await nextTurn();
  }
  release();
  await view.settled();
}

describe('the Jobs view redraw path', () => {
  it('a reveal and a refresh that arrive while getChildren is slow never meet an item VS Code has not been handed', async () => {
    const { model, view, redraws, reveal, release } = jobsView();
    // The view loads for the first time: the roots' listings hang.
    const loading = view.fetch();
    await nextTurn();
    // A launch reveals its job, the user refreshes and a sweep's tick redraws the top level: all while the listing hangs.
    const revealed = reveal('b');
    model.refresh();
    redraws.redraw();
    await drain(view, release, revealed);
    await loading;
    assert.deepEqual(view.errors, []);
    assert.equal((await revealed).jobName, 'b');
  });

  it('a redraw asked while a fetch is in flight waits for it, so the fetch cannot answer it with the old children', async () => {
    const fired: Array<string[] | undefined> = [];
    const redraws = new TreeRedraws<{ id: string }>(
      (nodes) => fired.push(nodes?.map((n) => n.id)),
      () => false,
    );
    const root = { id: 'root' };
    await redraws.children(undefined, async () => [root]);
    let finish!: (nodes: Array<{ id: string }>) => void;
    const inFlight = redraws.children(root, () => new Promise((resolve) => (finish = resolve)));
    redraws.redraw([root]);
    redraws.redraw();
    assert.deepEqual(fired, [], 'redrawn while VS Code was still fetching');
    finish([{ id: 'job' }]);
    await inFlight;
    assert.deepEqual(fired, [undefined], 'one whole redraw covers the root');
  });

  it('draws only items VS Code was handed, and an item redrawn before it was handed once it is', async () => {
    const fired: Array<string[] | undefined> = [];
    const redraws = new TreeRedraws<{ id: string }>(
      (nodes) => fired.push(nodes?.map((n) => n.id)),
      () => false,
    );
    const a = { id: 'a' };
    redraws.redraw([a]);
    redraws.redraw();
    assert.deepEqual(fired, [], 'nothing was handed yet');
    await redraws.children(undefined, async () => [a]);
    assert.deepEqual(fired, [['a']]);
    redraws.redraw([{ id: 'a' }]);
    assert.deepEqual(fired, [['a'], ['a']], 'a look-alike redraws the object VS Code holds');
  });
});
