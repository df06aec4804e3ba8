/** What the Jobs view's redraw path needs of a node: the id its tree item carries. */
export interface RedrawNode {
  readonly id: string;
}

/**
 * How long to wait for VS Code to ask for children it should ask for, when neither a hidden view nor a collapse released
 * the wait: a last resort. 5 s was reached on a loaded machine (three CIs at once) while VS Code was still on its way to ask.
 */
const ASK_WAIT_MS = 30_000;

/**
 * The one path by which the Jobs view redraws and reveals, so VS Code never meets an item it has forgotten or not yet
 * been given. VS Code forgets a redrawn item's descendants (all items for a whole-tree redraw) and then asks for the
 * children of what it shows expanded: a reveal, or a request of the workbench already on its way, that lands in between
 * fails with "No tree item with id …"; a redraw that lands while it still fetches children is answered with the children
 * it is fetching (the old ones). So a redraw or a reveal waits until no `getChildren` is in flight and VS Code has asked
 * for the children of every expanded item it was handed (it draws them even before it says the view is visible) or told
 * to redraw; it draws only items VS Code holds (the objects `getChildren` returned); a reveal runs alone.
 */
export class TreeRedraws<N extends RedrawNode> {
  /** The items VS Code was handed, by id, with the id of the item whose children they were ('' for the top level). */
  private readonly handed = new Map<string, { node: N; parent: string }>();
  /** Ids ('' for the top level) whose children VS Code is about to ask for. */
  private readonly awaited = new Set<string>();
  private awaitTimer?: ReturnType<typeof setTimeout>;
  private fetching = 0;
  private revealing = 0;
  private wantsAll = false;
  /** VS Code has asked for the top level: it asks again only when told to (even when the answer was no item at all). */
  private topAsked = false;
  private readonly wanted = new Set<string>();
  /** Ids asked to redraw while VS Code did not hold them: drawn once it asks for them again. */
  private readonly later = new Set<string>();
  private idle: Array<() => void> = [];

  /**
   * @param fire draws nodes, or the whole tree (undefined): `onDidChangeTreeData`.
   * @param view whether the view is visible (a hidden view asks for nothing until shown) and whether a node is expanded
   *   (VS Code asks for its children as soon as it holds it).
   * @param log says when VS Code did not ask in time (the redraws went on without it).
   */
  constructor(
    private readonly fire: (nodes: N[] | undefined) => void,
    private readonly view: { visible(): boolean; expanded(node: N): boolean },
    private readonly log: (message: string) => void = () => undefined,
    private readonly askWaitMs = ASK_WAIT_MS,
  ) {}

  /** The view was hidden: VS Code asks for nothing until it shows it again, so the redraws waiting on it go ahead. */
  hidden(): void {
    this.awaited.clear();
    this.flush();
  }

  /** The user collapsed a node: VS Code will not ask for its children until it is expanded again. */
  collapsed(node: N): void {
    if (this.awaited.delete(node.id)) this.flush();
  }

  /** Wraps the provider's `getChildren`: until VS Code has registered its answer nothing is redrawn; what it returns counts as handed. */
  async children(parent: N | undefined, fetch: () => Promise<N[]>): Promise<N[]> {
    const key = parent?.id ?? '';
    if (!key) this.topAsked = true;
    this.fetching++;
    try {
      const nodes = await fetch();
      this.forgetBelow(key);
      for (const node of nodes) {
        this.handed.set(node.id, { node, parent: key });
        // VS Code is drawing, so it asks for an expanded child's children next, even before it says the view is visible.
        if (this.view.expanded(node)) this.expect(node.id);
        if (this.later.delete(node.id)) this.wanted.add(node.id);
      }
      return nodes;
    } finally {
      this.awaited.delete(key);
      // VS Code registers the children a few microtasks after this returns, and applies the first redraw of a burst at
      // once: a redraw fired before would leave them registered under the forgotten parent, and VS Code 1.103 then
      // throws "Element with id … is already registered" when it fetches them again.
      setTimeout(() => {
        this.fetching--;
        this.flush();
      }, 0);
    }
  }

  /** Asks for a redraw of some nodes, or of the whole tree (undefined); done as soon as VS Code is quiet. */
  redraw(nodes?: N[]): void {
    if (!nodes) this.wantsAll = true;
    else for (const node of nodes) (this.handed.has(node.id) ? this.wanted : this.later).add(node.id);
    this.flush();
  }

  /** The handed node with this id, if any. */
  handedNode(id: string): N | undefined {
    return this.handed.get(id)?.node;
  }

  /** Runs a reveal once VS Code is quiet and no redraw waits; redraws asked meanwhile wait until it ends. */
  async reveal<T>(run: () => Promise<T>): Promise<T> {
    await this.quiet();
    this.revealing++;
    try {
      return await run();
    } finally {
      this.revealing--;
      this.flush();
    }
  }

  /** Resolves once no redraw waits, no fetch is in flight and VS Code has asked for what it was told to. */
  async quiet(): Promise<void> {
    while (this.busy() || this.wantsAll || this.wanted.size) await new Promise<void>((resolve) => this.idle.push(resolve));
  }

  private busy(): boolean {
    return this.fetching > 0 || this.revealing > 0 || this.awaited.size > 0;
  }

  private expect(id: string): void {
    this.awaited.add(id);
    this.awaitTimer ??= setTimeout(() => {
      this.awaitTimer = undefined;
      this.log(
        `Jobs view: VS Code did not ask for the children of ${[...this.awaited].map((a) => a || 'the top level').join(', ')} within ${this.askWaitMs / 1000} s`,
      );
      this.awaited.clear();
      this.flush();
    }, this.askWaitMs);
  }

  private flush(): void {
    if (!this.awaited.size && this.awaitTimer) {
      clearTimeout(this.awaitTimer);
      this.awaitTimer = undefined;
    }
    // A redraw makes VS Code forget the items below (every item for a whole redraw): not while it is about to ask for the
    // children of one, nor while it fetches.
    if (this.busy()) return;
    if (this.wantsAll) {
      this.wantsAll = false;
      for (const id of this.wanted) this.later.add(id);
      this.wanted.clear();
      // Not asked yet: VS Code will ask for the fresh tree anyway.
      if (this.topAsked) {
        this.handed.clear();
        if (this.view.visible()) this.expect('');
        this.fire(undefined);
      }
    } else if (this.wanted.size) {
      // A node below another redrawn one is forgotten by VS Code with it: drawn once VS Code asks for it again.
      const ids = [...this.wanted].filter((id) => this.handed.has(id));
      const nodes = ids.filter((id) => !this.below(id, ids)).map((id) => this.handed.get(id)!.node);
      for (const id of this.wanted) if (!nodes.some((n) => n.id === id)) this.later.add(id);
      this.wanted.clear();
      for (const node of nodes) {
        this.forgetBelow(node.id);
        if (this.view.visible() && this.view.expanded(node)) this.expect(node.id);
      }
      if (nodes.length) this.fire(nodes);
    }
    if (this.busy()) return;
    const waiting = this.idle;
    this.idle = [];
    for (const resolve of waiting) resolve();
  }

  private below(id: string, ancestors: string[]): boolean {
    for (let parent = this.handed.get(id)?.parent; parent; parent = this.handed.get(parent)?.parent) {
      if (ancestors.includes(parent)) return true;
    }
    return false;
  }

  /** VS Code forgets a redrawn item's descendants until it asks for them again (and asks for none of theirs before). */
  private forgetBelow(id: string): void {
    for (const [childId, entry] of this.handed) {
      if (entry.parent === id) {
        this.handed.delete(childId);
        this.awaited.delete(childId);
        this.forgetBelow(childId);
      }
    }
  }
}
