import type { AwsErrorExplained } from '../../aws/errors';
import type { JobRef } from '../../core/jobs/reference';
import { isInProgress, JOB_CATEGORIES, categoryLabel } from '../../core/jobs/status';
import { jobCost } from '../../core/jobs/summary';
import type { PricingTable } from '../../core/jobs/pricing';
import { timelineOf } from '../../core/jobs/timeline';
import { PAGE_SIZE, type JobsBackend, type JobsQuery } from './backend';
import { byPipeline } from './pipelines';
import { failureNode, LoadMoreNode, MessageNode } from '../treeNodes';
import { JobNode, RootNode, SectionNode, TransitionNode, type JobsTreeNode, type SectionKind } from './nodes';

interface JobsModelOptions {
  backend: JobsBackend;
  regions: () => string[];
  /** A sentence for an AWS error, and whether it means "no credentials" (shown as a Choose-profile node). */
  explain: (error: unknown, action: string) => AwsErrorExplained;
  /** Whether the replay board's `mtrl.openRollouts` exists, to offer a Rollouts node. */
  hasRollouts: () => boolean;
  now?: () => Date;
  /** How long one request may take before it counts as failed (default 60 s). */
  requestTimeoutMs?: number;
}

export interface StatusChange {
  node: JobNode;
  from: string;
  to: string;
}

const DESCRIBE_CONCURRENCY = 5;
const CLEAR_FILTER = { title: 'Clear filter', command: 'mtrl.clearJobsFilter', arguments: [] };
/** A request that hangs (a black-holed endpoint) must end as an error node, never as an endless spinner. */
const REQUEST_TIMEOUT_MS = 60_000;

/** The jobs tree without VS Code: roots per region and category, pages, filter, sort, refresh of running jobs. */
export class JobsModel {
  query: JobsQuery = { sortBy: 'CreationTime', ascending: false };
  private roots: RootNode[] = [];
  private readonly loading = new Map<RootNode, Promise<void>>();
  private readonly listeners = new Set<(node?: JobsTreeNode) => void>();

  constructor(private readonly options: JobsModelOptions) {}

  /** The sentence for an error; a timed-out request says so instead of "cancelled". */
  private explain(error: unknown, action: string, signal: AbortSignal): AwsErrorExplained {
    if (signal.aborted)
      return {
        kind: 'unreachable',
        sentence: `${action} got no answer within ${(this.options.requestTimeoutMs ?? REQUEST_TIMEOUT_MS) / 1000} s. Check the network or mtrl.aws.endpoint, then Retry.`,
      };
    return this.options.explain(error, action);
  }

  onDidChange(listener: (node?: JobsTreeNode) => void): { dispose(): void } {
    this.listeners.add(listener);
    return { dispose: () => this.listeners.delete(listener) };
  }

  private fire(node?: JobsTreeNode): void {
    for (const listener of this.listeners) listener(node);
  }

  now(): Date {
    return this.options.now?.() ?? new Date();
  }

  /** Roots in region order, kept across calls so loaded pages survive until a refresh. */
  getRoots(): RootNode[] {
    const wanted = this.wantedRoots();
    if (wanted.map((r) => r.id).join() !== this.roots.map((r) => r.id).join()) {
      this.roots = wanted.map((root) => this.roots.find((r) => r.id === root.id) ?? root);
    }
    return this.roots;
  }

  private wantedRoots(): RootNode[] {
    return this.options.regions().flatMap((region) => JOB_CATEGORIES.map((category) => new RootNode(region, category)));
  }

  async getChildren(node?: JobsTreeNode): Promise<JobsTreeNode[]> {
    if (!node) return this.getRoots();
    switch (node.kind) {
      case 'root':
        await this.ensureLoaded(node);
        if (node.error) return [node.error];
        if (!node.jobs.length) return [this.emptyState(node)];
        return node.nextToken ? [...byPipeline(node), loadMore(node)] : byPipeline(node);
      case 'pipeline':
        return node.jobs;
      case 'job':
        return this.sections(node);
      case 'section':
        if (node.section !== 'history') return [];
        return timelineOf(node.parent.details?.transitions, this.now()).map((entry, i) => new TransitionNode(node, entry, i));
      default:
        return [];
    }
  }

  private sections(job: JobNode): SectionNode[] {
    const kinds: SectionKind[] = ['configuration', 'history', 'logs'];
    if (this.options.hasRollouts()) kinds.push('rollouts');
    return kinds.map((k) => new SectionNode(job, k));
  }

  private emptyState(root: RootNode): MessageNode<RootNode> {
    if (this.query.nameContains || this.query.status)
      return new MessageNode(root, 'noMatch', 'No jobs match the filter.', { fix: CLEAR_FILTER });
    const what = categoryLabel(root.category).toLowerCase();
    const launch = root.category === 'AgentRFT' ? 'mtrl.launchTrainingJob' : 'mtrl.launchEvaluationJob';
    return new MessageNode(root, 'empty', `No ${what} jobs in ${root.region}.`, {
      fix: { title: `Launch ${what} job`, command: launch, arguments: [] },
      icon: 'rocket',
    });
  }

  /** Loads the first page once; concurrent callers share the same request. */
  ensureLoaded(root: RootNode): Promise<void> {
    if (root.loaded) return Promise.resolve();
    let pending = this.loading.get(root);
    if (!pending) {
      // Redraw the root itself afterwards: its description (count, cost) was drawn before the jobs arrived.
      pending = this.loadPage(root, false).finally(() => {
        this.loading.delete(root);
        this.fire(root);
      });
      this.loading.set(root, pending);
    }
    return pending;
  }

  async loadMore(root: RootNode): Promise<void> {
    if (!root.nextToken) return;
    await this.loadPage(root, true);
    this.fire(root);
  }

  private async loadPage(root: RootNode, append: boolean): Promise<void> {
    const signal = AbortSignal.timeout(this.options.requestTimeoutMs ?? REQUEST_TIMEOUT_MS);
    try {
      const page = await this.options.backend.listPage(root.region, root.category, this.query, append ? root.nextToken : undefined, signal);
      const nodes = page.jobs.map((summary) => new JobNode(root, summary));
      await this.describeAll(nodes);
      root.jobs = append ? [...root.jobs, ...nodes] : nodes;
      root.nextToken = page.nextToken;
      root.error = undefined;
    } catch (error) {
      const failure = this.explain(error, `Listing ${categoryLabel(root.category).toLowerCase()} jobs in ${root.region}`, signal);
      root.error = failureNode(root, failure, { title: 'Retry', command: 'mtrl.refreshJobs', arguments: [root] });
      if (!append) root.jobs = [];
    }
    root.loaded = true;
  }

  private async describeAll(nodes: JobNode[]): Promise<unknown[]> {
    const errors: unknown[] = [];
    let next = 0;
    const worker = async () => {
      while (next < nodes.length) {
        const node = nodes[next++];
        try {
          await this.describe(node);
        } catch (error) {
          errors.push(error);
        }
      }
    };
    await Promise.all(Array.from({ length: Math.min(DESCRIBE_CONCURRENCY, nodes.length) }, worker));
    return errors;
  }

  private async describe(node: JobNode): Promise<void> {
    const signal = AbortSignal.timeout(this.options.requestTimeoutMs ?? REQUEST_TIMEOUT_MS);
    try {
      node.details = await this.options.backend.describe(node.region, node.category, node.jobName, signal);
      node.summary = {
        ...node.summary,
        status: node.details.status,
        secondaryStatus: node.details.secondaryStatus,
        ended: node.details.ended,
      };
      node.describeError = undefined;
    } catch (error) {
      node.describeError = this.explain(error, `Describing ${node.jobName}`, signal).sentence;
      throw error;
    }
  }

  /**
   * Forgets loaded pages (of one root, or all) so the next expansion lists again. Each root is redrawn on its own: redrawing
   * the whole tree makes VS Code forget every item while it may still be asking for a root's children (or revealing a job),
   * which fails with "No tree item with id …". Only a change of regions redraws the whole tree.
   */
  refresh(root?: RootNode): void {
    const regionsChanged =
      !root &&
      this.wantedRoots()
        .map((r) => r.id)
        .join() !== this.roots.map((r) => r.id).join();
    for (const r of root ? [root] : this.roots) {
      r.loaded = false;
      r.error = undefined;
    }
    if (regionsChanged) this.fire(undefined);
    else for (const r of root ? [root] : this.roots) this.fire(r);
  }

  inProgress(): JobNode[] {
    return this.roots.flatMap((r) => r.jobs.filter((j) => isInProgress(j.status)));
  }

  /** Describes only the jobs still in progress; returns their status changes, and throws the first error after updating the rest. */
  async refreshInProgress(): Promise<StatusChange[]> {
    const running = this.inProgress();
    const before = new Map(running.map((n) => [n, n.status]));
    const errors = await this.describeAll(running);
    const changes = running.filter((n) => n.status !== before.get(n)).map((n) => ({ node: n, from: before.get(n)!, to: n.status }));
    // The roots for their cost sums, then each job, so its row is drawn from the same describe as its tooltip.
    for (const root of new Set(running.map((n) => n.parent))) this.fire(root);
    for (const node of running) this.fire(node);
    if (errors.length) throw errors[0];
    return changes;
  }

  /** Re-describes one job (after Stop) and redraws it with its root's cost sum. */
  async refreshJob(node: JobNode): Promise<void> {
    await this.describe(node).catch(() => undefined);
    this.fire(node.parent);
    this.fire(node);
  }

  remove(node: JobNode): void {
    node.parent.jobs = node.parent.jobs.filter((j) => j !== node);
    this.fire(node.parent);
  }

  /** The node of a job, listing again when it is not loaded yet (a new launch) and pinning it on top when it is beyond the first page or filtered out. */
  async find(ref: JobRef): Promise<JobNode | undefined> {
    const region = ref.region ?? this.options.regions()[0];
    const root = this.getRoots().find((r) => r.region === region && r.category === ref.category);
    if (!root) return undefined;
    await this.ensureLoaded(root);
    let node = root.jobs.find((j) => j.jobName === ref.jobName);
    if (node) {
      await this.refreshJob(node);
      return node;
    }
    root.loaded = false;
    await this.ensureLoaded(root);
    node = root.jobs.find((j) => j.jobName === ref.jobName);
    if (!node && !root.error) {
      const details = await this.options.backend.describe(region, ref.category, ref.jobName);
      node = new JobNode(root, details);
      node.details = details;
      root.jobs = [node, ...root.jobs];
    }
    this.fire(root);
    return node;
  }

  /** The listed node of this node's job: a refresh lists new nodes for the same jobs. */
  listed(node: JobNode): JobNode | undefined {
    return this.roots.flatMap((r) => r.jobs).find((j) => j.id === node.id);
  }

  /** Sum of the estimated cost of the loaded jobs of a root. */
  rootCost(root: RootNode, pricing: PricingTable): number | undefined {
    const costs = root.jobs
      .map((j) => (j.details ? jobCost(j.details, pricing)?.total : undefined))
      .filter((c): c is number => c !== undefined);
    return costs.length ? costs.reduce((a, b) => a + b, 0) : undefined;
  }

  setQuery(change: Partial<JobsQuery>): void {
    this.query = { ...this.query, ...change };
    this.refresh();
  }

  /** The visible filter and sort, e.g. `name ~ "grpo" · InProgress · by name ↑`; undefined when default. */
  filterDescription(): string | undefined {
    const parts: string[] = [];
    if (this.query.nameContains) parts.push(`name ~ "${this.query.nameContains}"`);
    if (this.query.status) parts.push(this.query.status);
    if (this.query.sortBy !== 'CreationTime' || this.query.ascending) {
      const by = this.query.sortBy === 'CreationTime' ? 'created' : this.query.sortBy.toLowerCase();
      parts.push(`by ${by} ${this.query.ascending ? '↑' : '↓'}`);
    }
    return parts.length ? parts.join(' · ') : undefined;
  }
}

/** The row after a page of jobs that lists the next page. */
function loadMore(root: RootNode): LoadMoreNode<RootNode> {
  return new LoadMoreNode(root, { title: 'Load more', command: 'mtrl.loadMoreJobs', arguments: [root] }, `List the next ${PAGE_SIZE} jobs`);
}
