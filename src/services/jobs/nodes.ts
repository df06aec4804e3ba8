import type { JobCategory } from '../../core/jobs/status';
import type { JobDetails, JobSummary } from '../../core/jobs/job';
import type { TimelineEntry } from '../../core/jobs/timeline';
import type { LoadMoreNode, MessageNode, TreeNode } from '../treeNodes';

/** One "Training" or "Evaluation" root of a region; holds the pages loaded so far. */
export class RootNode implements TreeNode {
  readonly kind = 'root';
  jobs: JobNode[] = [];
  nextToken?: string;
  loaded = false;
  error?: MessageNode<RootNode>;
  constructor(
    readonly region: string,
    readonly category: JobCategory,
  ) {}
  get id(): string {
    return `${this.region}/${this.category}`;
  }
}

/** The evaluations one SDK pipeline execution made (base and fine-tuned), shown together so they compare in one click. */
export class PipelineNode implements TreeNode {
  readonly kind = 'pipeline';
  constructor(
    readonly parent: RootNode,
    readonly execution: string,
    readonly jobs: JobNode[],
  ) {}
  get id(): string {
    return `${this.parent.id}/pipeline/${this.execution}`;
  }
}

/** A job; `jobName`, `category`, `region`, `arn` are the contract other features read from menu arguments. */
export class JobNode implements TreeNode {
  readonly kind = 'job';
  details?: JobDetails;
  /** The pipeline execution it is shown under, when an SDK evaluation pipeline made it. */
  pipeline?: PipelineNode;
  /** A sentence when DescribeJob failed: the node still shows the ListJobs row. */
  describeError?: string;
  constructor(
    readonly parent: RootNode,
    public summary: JobSummary,
  ) {}
  get jobName(): string {
    return this.summary.name;
  }
  get category(): JobCategory {
    return this.summary.category;
  }
  get region(): string {
    return this.summary.region;
  }
  get arn(): string {
    return this.summary.arn;
  }
  get status(): string {
    return this.details?.status ?? this.summary.status;
  }
  get id(): string {
    return `${this.region}/${this.category}/${this.jobName}`;
  }
  get contextValue(): string {
    return `job:${this.category}:${this.status}`;
  }
  /** The freshest view of the job: DescribeJob when loaded, else the ListJobs row. */
  get job(): JobSummary | JobDetails {
    return this.details ?? this.summary;
  }
}

export type SectionKind = 'configuration' | 'history' | 'logs' | 'rollouts';

export class SectionNode implements TreeNode {
  readonly kind = 'section';
  constructor(
    readonly parent: JobNode,
    readonly section: SectionKind,
  ) {}
  get id(): string {
    return `${this.parent.id}#${this.section}`;
  }
}

export class TransitionNode implements TreeNode {
  readonly kind = 'transition';
  constructor(
    readonly parent: SectionNode,
    readonly entry: TimelineEntry,
    readonly index: number,
  ) {}
  get id(): string {
    return `${this.parent.id}#${this.index}`;
  }
}

export type JobsTreeNode =
  RootNode | PipelineNode | JobNode | SectionNode | TransitionNode | LoadMoreNode<RootNode> | MessageNode<RootNode>;

/** The node a node is drawn under: a pipeline evaluation's job under its pipeline, a root under none. */
export function drawnParent(node: JobsTreeNode): JobsTreeNode | undefined {
  if (node.kind === 'job' && node.pipeline) return node.pipeline;
  return node.kind === 'root' ? undefined : node.parent;
}
