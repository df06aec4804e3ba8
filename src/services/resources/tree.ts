import type { AwsErrorExplained } from '../../aws/errors';
import type { ResourceKind } from '../../core/resources/references';
import { failureNode, MessageNode, type TreeNode } from '../treeNodes';
import type { Inventory, InventoryItem } from './inventory';

export type ResourcesSection = 'spend' | ResourceKind;

const SECTION_ORDER: readonly ResourcesSection[] = ['spend', 'runtime', 'role', 'mlflowApp', 's3Prefix', 'notificationRule'];

const EMPTY: Record<ResourcesSection, string> = {
  spend: 'No job reports billable tokens yet.',
  runtime: 'No agent runtime in these regions.',
  role: 'No role is named by a job.',
  mlflowApp: 'No MLflow app in these regions.',
  s3Prefix: 'No job reads or writes S3 here.',
  notificationRule: 'No job was launched with notifications.',
};

/** One section of the Resources view: the token spend, or one kind of resource. */
export class SectionNode implements TreeNode {
  readonly kind = 'section';
  constructor(
    readonly section: ResourcesSection,
    /** Rows below it: jobs with a cost for the spend, resources for the others. */
    readonly count: number,
  ) {}
  get id(): string {
    return `section:${this.section}`;
  }
}

/** A resource a job left behind; an S3 prefix has the sub-prefixes jobs used below it. */
export class ResourceNode implements TreeNode {
  readonly kind = 'item';
  constructor(
    readonly parent: SectionNode | ResourceNode,
    readonly item: InventoryItem,
  ) {}
  get id(): string {
    return this.item.ref.id;
  }
}

/** One job's token spend. */
export class SpendNode implements TreeNode {
  readonly kind = 'spend';
  constructor(
    readonly parent: SectionNode,
    readonly job: { name: string; region: string; category: string },
    readonly cost: number,
  ) {}
  get id(): string {
    return `spend:${this.job.region}/${this.job.category}/${this.job.name}`;
  }
}

export type ResourcesTreeNode = SectionNode | ResourceNode | SpendNode | MessageNode;

export const RESOURCES_LOADING = new MessageNode(undefined, 'loading', 'Loading what your jobs left behind…');

/** The view's only row when the inventory could not be loaded. */
export function resourcesFailure(failure: AwsErrorExplained): MessageNode<undefined> {
  return failureNode(undefined, failure, { title: 'Retry', command: 'mtrl.refreshResources' });
}

const itemsOf = (inv: Inventory, kind: ResourceKind): InventoryItem[] =>
  ({ runtime: inv.runtimes, role: inv.roles, mlflowApp: inv.mlflowApps, s3Prefix: inv.prefixes, notificationRule: inv.notificationRules })[
    kind
  ];

const billed = (inv: Inventory) => inv.spend.jobs.filter((j) => j.cost);

/** The Resources view without VS Code: the inventory's problems and sections, each section's rows or the sentence that it is empty. */
export function resourcesChildren(inv: Inventory, node?: ResourcesTreeNode): ResourcesTreeNode[] {
  if (!node) {
    const problems = inv.problems.map((text, i) => new MessageNode(undefined, 'warning', text, { key: `problem${i}` }));
    const sections = SECTION_ORDER.map((s) => new SectionNode(s, s === 'spend' ? billed(inv).length : itemsOf(inv, s).length));
    return [...problems, ...sections];
  }
  if (node.kind === 'section') {
    const rows =
      node.section === 'spend'
        ? billed(inv).map((j) => new SpendNode(node, j.job, j.cost?.total ?? 0))
        : itemsOf(inv, node.section).map((item) => new ResourceNode(node, item));
    return rows.length ? rows : [new MessageNode(node, 'empty', EMPTY[node.section])];
  }
  if (node.kind === 'item') return (node.item.children ?? []).map((item) => new ResourceNode(node, item));
  return [];
}
