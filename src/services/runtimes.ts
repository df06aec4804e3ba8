import type { AwsClients } from '../aws/clients';
import { getAgentRuntime, listAgentRuntimes } from '../aws/agentcore';
import type { Explainer } from '../aws/errors';
import { failureNode, MessageNode, type TreeNode } from './treeNodes';
import { viewDeadline } from './viewDeadline';

/** One agent runtime; `runtimeArn` is what `mtrl.smokeTestRuntime` reads from the node a menu hands it. */
export class RuntimeNode implements TreeNode {
  readonly kind = 'runtime';
  constructor(
    readonly runtimeArn: string,
    readonly name: string,
    readonly status: string,
  ) {}
  get id(): string {
    return this.runtimeArn;
  }
}

/** A node of the Agent Runtimes view: a runtime of the current region, or the sentence shown instead. */
export type RuntimesTreeNode = RuntimeNode | MessageNode<undefined>;

const RETRY = { title: 'Retry', command: 'mtrl.refreshRuntimes' };
const CHOOSE_REGION = { title: 'Choose AWS region', command: 'mtrl.chooseRegion' };

/** The view's top level: the current region's runtimes (every page), else why there are none to show and what to do. */
export async function listRuntimeNodes(aws: AwsClients, explain: Explainer, signal?: AbortSignal): Promise<RuntimesTreeNode[]> {
  const region = aws.current.region;
  const what = `Listing agent runtimes in ${region}`;
  const deadline = viewDeadline(signal);
  try {
    const runtimes: RuntimeNode[] = [];
    for await (const r of listAgentRuntimes(aws.agentCoreControl(), deadline.signal)) {
      if (!r.agentRuntimeArn) continue;
      runtimes.push(new RuntimeNode(r.agentRuntimeArn, r.agentRuntimeName ?? r.agentRuntimeId ?? r.agentRuntimeArn, r.status ?? 'UNKNOWN'));
    }
    if (runtimes.length) return runtimes;
    return [new MessageNode(undefined, 'empty', `No agent runtimes in ${region}`, { fix: CHOOSE_REGION })];
  } catch (error) {
    return [failureNode(undefined, deadline.failure(error, what, explain), RETRY)];
  }
}

/** Every agent runtime of a region (the current one when none is named), page after page. */
export function runtimesIn(aws: AwsClients, region?: string, signal?: AbortSignal) {
  return listAgentRuntimes(aws.agentCoreControl(region), signal);
}

/** A runtime's details by id (`wordle_agent-AbCdEf1234`). */
export function runtimeDetails(aws: AwsClients, runtimeId: string, region?: string, signal?: AbortSignal) {
  return getAgentRuntime(aws.agentCoreControl(region), runtimeId, signal);
}
