import type { BedrockAgentCoreClient } from '@aws-sdk/client-bedrock-agentcore';
import type { AgentRuntime, BedrockAgentCoreControlClient, GetAgentRuntimeCommandOutput } from '@aws-sdk/client-bedrock-agentcore-control';
import { randomUUID } from 'node:crypto';
import { sdk } from './sdkLoader';
import { paginateItems } from './paginate';

interface Invocation {
  agentRuntimeArn: string;
  qualifier?: string;
  /** Sent as JSON when not already a string. */
  payload: unknown;
  /** 33–256 characters; a fresh one is made when omitted. */
  runtimeSessionId?: string;
}

interface InvocationResult {
  statusCode?: number;
  runtimeSessionId?: string;
  text: string;
  /** The body parsed as JSON, when it is JSON. */
  json?: unknown;
}

/** A session id the service accepts (it wants 33–256 characters). */
function newRuntimeSessionId(): string {
  return `mtrl-${randomUUID()}`;
}

/** Calls the agent once and reads the whole answer. */
export async function invokeAgentRuntime(
  client: BedrockAgentCoreClient,
  call: Invocation,
  signal?: AbortSignal,
): Promise<InvocationResult> {
  const body = typeof call.payload === 'string' ? call.payload : JSON.stringify(call.payload);
  const out = await client.send(
    new (sdk().InvokeAgentRuntimeCommand)({
      agentRuntimeArn: call.agentRuntimeArn,
      qualifier: call.qualifier,
      runtimeSessionId: call.runtimeSessionId ?? newRuntimeSessionId(),
      contentType: 'application/json',
      accept: 'application/json',
      payload: new TextEncoder().encode(body),
    }),
    { abortSignal: signal },
  );
  const text = out.response ? await out.response.transformToString() : '';
  let json: unknown;
  try {
    json = text ? JSON.parse(text) : undefined;
  } catch {
    json = undefined;
  }
  return { statusCode: out.statusCode, runtimeSessionId: out.runtimeSessionId, text, json };
}

export async function* listAgentRuntimes(client: BedrockAgentCoreControlClient, signal?: AbortSignal): AsyncIterable<AgentRuntime> {
  yield* paginateItems(
    async (token, pageSignal) => {
      const page = await client.send(new (sdk().ListAgentRuntimesCommand)({ nextToken: token }), { abortSignal: pageSignal });
      return { items: page.agentRuntimes ?? [], next: page.nextToken };
    },
    { what: 'AgentCore ListAgentRuntimes', signal },
  );
}

type AgentRuntimeDetails = Omit<GetAgentRuntimeCommandOutput, '$metadata'>;

/** A runtime by id (`wordle_agent-AbCdEf1234`), the part of its ARN after `runtime/`. */
export async function getAgentRuntime(
  client: BedrockAgentCoreControlClient,
  agentRuntimeId: string,
  signal?: AbortSignal,
): Promise<AgentRuntimeDetails> {
  const { $metadata, ...out } = await client.send(new (sdk().GetAgentRuntimeCommand)({ agentRuntimeId }), { abortSignal: signal });
  void $metadata;
  return out;
}

/** Deletes a runtime by id; the service answers at once and finishes the deletion in the background. */
export async function deleteAgentRuntime(
  client: BedrockAgentCoreControlClient,
  agentRuntimeId: string,
  signal?: AbortSignal,
): Promise<void> {
  await client.send(new (sdk().DeleteAgentRuntimeCommand)({ agentRuntimeId }), { abortSignal: signal });
}
