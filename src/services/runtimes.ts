import type { AwsClients } from '../aws/clients';
import { listAgentRuntimes } from '../aws/agentcore';
import type { Explain } from '../aws/errors';

/** One agent runtime as the Agent Runtimes view lists it. */
export interface RuntimeRow {
  arn: string;
  name: string;
  status: string;
}

/** The region's runtimes, or the sentence to show instead: none there, or why they could not be listed. */
export type RuntimesListing = { runtimes: RuntimeRow[] } | { message: string; error: boolean };

/** Lists the agent runtimes of the current region (every page); an error is a sentence naming profile, region and endpoint. */
export async function listRuntimeRows(aws: AwsClients, explain: Explain, signal?: AbortSignal): Promise<RuntimesListing> {
  const region = aws.current.region;
  try {
    const runtimes: RuntimeRow[] = [];
    for await (const r of listAgentRuntimes(aws.agentCoreControl(), signal)) {
      if (!r.agentRuntimeArn) continue;
      runtimes.push({
        arn: r.agentRuntimeArn,
        name: r.agentRuntimeName ?? r.agentRuntimeId ?? r.agentRuntimeArn,
        status: r.status ?? 'UNKNOWN',
      });
    }
    return runtimes.length ? { runtimes } : { message: `No agent runtimes in ${region}`, error: false };
  } catch (error) {
    return { message: explain(error, `Listing agent runtimes in ${region}`), error: true };
  }
}
