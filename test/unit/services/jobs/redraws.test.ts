import { strict as assert } from 'node:assert';
import type { JobsBackend } from '../../../../src/services/jobs/backend';
import { JobsModel } from '../../../../src/services/jobs/model';
import { drawnParent, type JobNode, type JobsTreeNode } from '../../../../src/services/jobs/nodes';
import { TreeRedraws } from '../../../../src/services/jobs/redraws';

const REGION = 'us-east-1';
const nextTurn = () => new Promise<void>((resolve) => setImmediate(resolve));
/** Roots and pipeline evaluations are drawn expanded: VS Code asks for their children as soon as it holds them. */
const expanded = (node: JobsTreeNode) => node.kind === 'root' || node.kind === 'pipeline';
/** Two evaluations one SDK pipeline execution made: the Jobs view shows them under one pipeline node. */
const PIPELINE = ['pipelines-q8hvze02od4o-EvaluateBaseModel-a1', 'pipelines-q8hvze02od4o-EvaluateFineTunedMod-b2'];

/**
 * The contract VS Code keeps with a tree data provider (as its extension host does it in 1.139): it knows only the items
 * a `getChildren` handed it; a redraw makes it forget the item's descendants (all items for a whole-tree redraw) and ask
 * again a moment later; a reveal resolves the parent chain through `getParent`, asking for children of unknown parents.
 * Asking for the children of an item it does not know is the "No tree item with id" error.
 */
class FakeTreeView {
  private readonly known = new Map<string, JobsTreeNode>();
  private readonly below = new Map<string, string[]>();
  private readonly parents = new Map<string, string>();
  readonly errors: string[] = [];
  private readonly asked: Promise<unknown>[] = [];

  constructor(
    private readonly getChildren: (node?: JobsTreeNode) => Promise<JobsTreeNode[]>,
    private readonly getParent: (node: JobsTreeNode) => JobsTreeNode | undefined,
  ) {}

  /**
   * The workbench asks for an item's children; roots and pipelines are drawn expanded, so their children are asked for
   * next. The extension host forgets the item's descendants as the request arrives, before the provider answers.
   */
  async fetch(handle = ''): Promise<void> {
    const parent = handle ? this.known.get(handle) : undefined;
    if (handle && !parent) {
      this.errors.push(`No tree item with id '1/${handle}' found.`);
      return;
    }
    this.forget(handle);
    const nodes = await this.getChildren(parent);
    for (const node of nodes) {
      this.known.set(node.id, node);
      this.parents.set(node.id, handle);
    }
    this.below.set(
      handle,
      nodes.map((n) => n.id),
    );
    for (const node of nodes.filter(expanded)) this.ask(node.id);
  }

  /** What `onDidChangeTreeData` does. */
  redraw(nodes: JobsTreeNode[] | undefined): void {
    if (!nodes) {
      this.known.clear();
      this.parents.clear();
      this.below.clear();
      this.ask('');
      return;
    }
    for (const node of nodes) {
      if (this.known.get(node.id) !== node) continue;
      this.forget(node.id);
      if (expanded(node)) this.ask(node.id);
    }
  }

  /** Like VS Code's reveal, it waits for the redraws under way (their round trip to the workbench) first. */
  async reveal(node: JobsTreeNode): Promise<void> {
    await this.settled();
    await this.resolve(node);
  }

  /** As VS Code resolves a parent chain: an item it holds by its cached parent, else `getParent`; then by id. */
  private async resolve(node: JobsTreeNode): Promise<void> {
    const held = this.known.get(node.id) === node;
    const parent = held ? this.known.get(this.parents.get(node.id) ?? '') : this.getParent(node);
    if (parent) await this.resolve(parent);
    if (held) return;
    const handle = parent?.id ?? '';
    // It asks for the parent's children unless it holds them already, then looks the item up by its id.
    if (!this.below.has(handle)) await this.fetch(handle);
    if (!this.known.has(node.id)) this.errors.push(`Cannot resolve tree item for element 1/${node.id}`);
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
      this.parents.delete(id);
      this.forget(id);
    }
    this.below.delete(handle);
  }
}

/** A backend whose listings wait until the test lets them go: a `getChildren` slow on purpose. */
function slowBackend() {
  const waiting: Array<() => void> = [];
  const summary = (name: string, category: 'AgentRFT' | 'AgentRFTEvaluation' = 'AgentRFT') => ({
    name,
    arn: `arn:${name}`,
    category,
    region: REGION,
    status: 'Completed',
    created: new Date(0),
  });
  const backend: Partial<JobsBackend> = {
    listPage: (_region, category) =>
      new Promise((resolve) =>
        waiting.push(() =>
          resolve({ jobs: category === 'AgentRFT' ? [summary('a'), summary('b')] : [...PIPELINE, 'e'].map((n) => summary(n, category)) }),
        ),
      ),
    describe: async (_r, category, name) => ({ ...summary(name, category), transitions: [] }),
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
  // VS Code tells the extension its view is visible a moment after it starts asking for children (a zero timeout).
  let visible = false;
  const redraws = new TreeRedraws<JobsTreeNode>((nodes) => view.redraw(nodes), { visible: () => visible, expanded });
  view = new FakeTreeView(
    (node) => redraws.children(node, () => model.getChildren(node)),
    // As the provider answers VS Code: the parent it holds, else the one drawn now.
    (node) => {
      const parent = drawnParent(node);
      return parent && (redraws.handedNode(parent.id) ?? parent);
    },
  );
  model.onDidChange((node) => redraws.redraw(node && [node]));
  const reveal = async (jobName: string, category: 'AgentRFT' | 'AgentRFTEvaluation' = 'AgentRFT') => {
    const node = (await model.find({ jobName, category, region: REGION })) as JobNode;
    return redraws.reveal(async () => {
      const current = (redraws.handedNode(node.id) as JobNode | undefined) ?? model.listed(node) ?? node;
      await view.reveal(current);
      return current;
    });
  };
  const becomeVisible = () => setTimeout(() => (visible = true), 0);
  return { model, view, redraws, reveal, release, becomeVisible };
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
    const { model, view, redraws, reveal, release, becomeVisible } = jobsView();
    // The view loads for the first time: the roots' listings hang.
    const loading = view.fetch();
    becomeVisible();
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

  it('reveals evaluations under their pipeline node while refreshes arrive, before and after the view says it is visible', async () => {
    const { model, view, reveal, release, becomeVisible } = jobsView();
    // The view starts drawing before VS Code has told the extension it is visible.
    const loading = view.fetch();
    await nextTurn();
    const revealed = reveal(PIPELINE[1], 'AgentRFTEvaluation');
    model.refresh();
    await drain(view, release, revealed);
    await loading;
    becomeVisible();
    const again = reveal(PIPELINE[0], 'AgentRFTEvaluation');
    model.refresh();
    await drain(view, release, again);
    assert.deepEqual(view.errors, []);
    assert.deepEqual([(await revealed).jobName, (await again).jobName], [PIPELINE[1], PIPELINE[0]]);
  });

  it('a redraw asked while a fetch is in flight waits for it, so the fetch cannot answer it with the old children', async () => {
    const fired: Array<string[] | undefined> = [];
    const redraws = new TreeRedraws<{ id: string }>((nodes) => fired.push(nodes?.map((n) => n.id)), {
      visible: () => false,
      expanded: () => false,
    });
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
    const redraws = new TreeRedraws<{ id: string }>((nodes) => fired.push(nodes?.map((n) => n.id)), {
      visible: () => false,
      expanded: () => false,
    });
    const a = { id: 'a' };
    redraws.redraw([a]);
    redraws.redraw();
    assert.deepEqual(fired, [], 'nothing was handed yet');
    await redraws.children(undefined, async () => [a]);
    assert.deepEqual(fired, [['a']]);
    redraws.redraw([{ id: 'a' }]);
    assert.deepEqual(fired, [['a'], ['a']], 'a look-alike redraws the object VS Code holds');
  });

  it('redraws the whole view after its top level was answered with no item (the welcome content showed)', async () => {
    const fired: Array<string[] | undefined> = [];
    const redraws = new TreeRedraws<{ id: string }>((nodes) => fired.push(nodes?.map((n) => n.id)), {
      visible: () => false,
      expanded: () => false,
    });
    await redraws.children(undefined, async () => []);
    redraws.redraw();
    assert.deepEqual(fired, [undefined], 'VS Code asked once and would never ask again');
  });
});
