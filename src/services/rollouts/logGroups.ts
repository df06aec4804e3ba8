import type { AwsClients } from '../../aws/clients';
import { describeLogGroups } from '../../aws/logs';

const RUNTIME_GROUPS = '/aws/bedrock-agentcore/runtimes/';

/** The names of the AgentCore runtimes' log groups of the current region, where a runtime's rollouts are logged. */
export async function* runtimeLogGroups(aws: AwsClients, signal?: AbortSignal): AsyncIterable<string> {
  for await (const group of describeLogGroups(aws.logs(), RUNTIME_GROUPS, signal)) if (group.logGroupName) yield group.logGroupName;
}
