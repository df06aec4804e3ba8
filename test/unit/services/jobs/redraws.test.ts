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

/** VS Code registers a fetch's children a few microtasks after `getChildren` returns; the redraw path waits this long. */
const registered = () => new Promise<void>((resolve) => setTimeout(resolve, 0));

/** An item VS Code holds: the object `getChildren` handed it, and the children it registered under that very item. */
interface Held {
  node?: JobsTreeNode;
  children?: string[];
}

/**
 * The contract VS Code keeps with a tree data provider (as its extension host does it): it knows only the items a
 * `getChildren` handed it; a redraw makes it forget the item's descendants (all items for a whole-tree redraw, which also
 * cancels the fetches under way) and ask again a moment later; a reveal resolves the parent chain through `getParent`,
 * asking for children of unknown parents. Asking for the children of an item it does not know is the "No tree item
 * with id" error. A fetch registers its answer under the item it started from, after `getChildren` returns (its tree
 * items come first): an item redrawn meanwhile keeps those children out of its new self. Registering an id it holds
 * already replaces it in VS Code 1.139 and throws in 1.103 ("Element with id … is already registered").
 */
class FakeTreeView {
  private readonly known = new Map<string, Held>();
  private readonly parents = new Map<string, string>();
  private top: Held = {};
  private generation = 0;
  readonly errors: string[] = [];
  private readonly asked: Promise<unknown>[] = [];

  constructor(
    private readonly getChildren: (node?: JobsTreeNode) => Promise<JobsTreeNode[]>,
    private readonly getParent: (node: JobsTreeNode) => JobsTreeNode | undefined,
    private readonly version: '1.103' | '1.139' = '1.139',
  ) {}

  /**
   * The workbench asks for an item's children; roots and pipelines are drawn expanded, so their children are asked for
   * next. The extension host forgets the item's descendants as the request arrives, before the provider answers.
   */
  async fetch(handle = ''): Promise<void> {
    const parent = handle ? this.known.get(handle) : this.top;
    if (!parent) {
      this.errors.push(`No tree item with id '1/${handle}' found.`);
      return;
    }
    const generation = this.generation;
    this.forget(parent);
    const nodes = await this.getChildren(parent.node);
    // Its tree items, then the registration.
    await Promise.all(nodes.map(async (node) => node));
    if (generation !== this.generation) return;
    parent.children = [];
    for (const node of nodes) {
      if (this.known.has(node.id) && this.version === '1.103') {
        this.errors.push(`Element with id ${node.id} is already registered`);
        return;
      }
      this.known.set(node.id, { node });
      this.parents.set(node.id, handle);
      parent.children.push(node.id);
    }
    for (const node of nodes.filter(expanded)) this.ask(node.id);
  }

  /** What `onDidChangeTreeData` does; VS Code applies the first redraw of a burst at once. */
  redraw(nodes: JobsTreeNode[] | undefined): void {
    if (!nodes) {
      this.generation++;
      this.known.clear();
      this.parents.clear();
      this.top = {};
      this.ask('');
      return;
    }
    for (const node of nodes) {
      const held = this.known.get(node.id);
      if (held?.node !== node) continue;
      this.forget(held);
      this.known.set(node.id, { node });
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
    const held = this.known.get(node.id)?.node === node;
    const parent = held ? this.known.get(this.parents.get(node.id) ?? '')?.node : this.getParent(node);
    if (parent) await this.resolve(parent);
    if (held) return;
    const handle = parent?.id ?? '';
    // It asks for the parent's children unless it holds them already, then looks the item up by its id.
    if (!(handle ? this.known.get(handle) : this.top)?.children) await this.fetch(handle);
    if (!this.known.has(node.id)) this.errors.push(`Cannot resolve tree item for element 1/${node.id}`);
  }

  /** Whether VS Code holds an item of this job name. */
  holds(jobName: string): boolean {
    return [...this.known.keys()].some((id) => id.endsWith(`/${jobName}`));
  }

  /** Waits until the workbench has asked for everything it was told to. */
  async settled(): Promise<void> {
    while (this.asked.length) await this.asked.shift();
  }

  private ask(handle: string): void {
    this.asked.push(nextTurn().then(() => this.fetch(handle)));
  }

  private forget(held: Held): void {
    for (const id of held.children ?? []) {
      const child = this.known.get(id);
      this.known.delete(id);
      this.parents.delete(id);
      if (child) this.forget(child);
    }
    held.children = undefined;
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
function jobsView(version: '1.103' | '1.139' = '1.139') {
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
    version,
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
  const all = until.then(() => view.settled()).finally(() => (done = true));
  while (!done) {
    release();
    await nextTurn();
  }
  await all;
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

  it('a redraw waiting on VS Code to ask goes ahead when the view is hidden or the node collapsed, and else only after the last-resort wait', async () => {
    for (const release of ['hidden', 'collapsed', 'timer'] as const) {
      const fired: Array<string[] | undefined> = [];
      const logged: string[] = [];
      const root = { id: 'root' };
      const redraws = new TreeRedraws<{ id: string }>(
        (nodes) => fired.push(nodes?.map((n) => n.id)),
        { visible: () => true, expanded: (node) => node === root },
        (message) => logged.push(message),
        release === 'timer' ? 30 : 60_000,
      );
      // VS Code is handed an expanded root: it will ask for its children, so a redraw waits for that.
      await redraws.children(undefined, async () => [root]);
      await registered();
      redraws.redraw([root]);
      await registered();
      assert.deepEqual(fired, [], `${release}: drawn before VS Code asked`);
      if (release === 'hidden') redraws.hidden();
      if (release === 'collapsed') redraws.collapsed(root);
      if (release === 'timer') while (!fired.length) await new Promise((resolve) => setTimeout(resolve, 10));
      assert.deepEqual(fired, [['root']], release);
      assert.equal(logged.length, release === 'timer' ? 1 : 0, `${release}: ${logged.join(' ')}`);
    }
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
    await registered();
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
    assert.deepEqual(fired, [], 'VS Code has not registered the answer yet');
    await registered();
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
    await registered();
    redraws.redraw();
    assert.deepEqual(fired, [undefined], 'VS Code asked once and would never ask again');
  });

  it('a redraw waits until VS Code registered the children it was fetching: VS Code 1.103 would hold them twice', async () => {
    const { model, view, redraws, release, becomeVisible } = jobsView('1.103');
    const loading = view.fetch();
    becomeVisible();
    await drain(view, release, loading);
    // Prices change just as the pipeline's evaluations are fetched: every root is redrawn.
    redraws.redraw(model.getRoots());
    await drain(view, release, redraws.quiet());
    await drain(view, release, redraws.quiet());
    assert.deepEqual(view.errors, []);
    assert.equal(view.holds(PIPELINE[0]) && view.holds(PIPELINE[1]), true, "the pipeline's evaluations are drawn");
  });
});
