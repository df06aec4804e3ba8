import type { LambdaClient } from '@aws-sdk/client-lambda';
import { sdk } from './sdkLoader';

/** What the pre-flight reads of a bring-your-own-agent Lambda. */
export interface LambdaFunctionFacts {
  arn?: string;
  /** Seconds the function may run. */
  timeoutSeconds?: number;
  state?: string;
}

/** GetFunctionConfiguration: the function exists, its timeout and state. */
export async function getLambdaFunction(client: LambdaClient, functionArn: string, signal?: AbortSignal): Promise<LambdaFunctionFacts> {
  const out = await client.send(new (sdk().GetFunctionConfigurationCommand)({ FunctionName: functionArn }), { abortSignal: signal });
  return { arn: out.FunctionArn, timeoutSeconds: out.Timeout, state: out.State };
}

/** One synchronous Invoke and its answer: the payload as text (and JSON when it is), and the runtime's error marker when the function raised. */
export async function invokeLambda(
  client: LambdaClient,
  functionArn: string,
  payload: unknown,
  signal?: AbortSignal,
): Promise<{ functionError?: string; text: string; json?: unknown }> {
  const out = await client.send(
    new (sdk().InvokeCommand)({
      FunctionName: functionArn,
      InvocationType: 'RequestResponse',
      Payload: new TextEncoder().encode(JSON.stringify(payload)),
    }),
    { abortSignal: signal },
  );
  const text = out.Payload ? new TextDecoder().decode(out.Payload) : '';
  let json: unknown;
  try {
    json = text ? JSON.parse(text) : undefined;
  } catch {
    json = undefined;
  }
  return { functionError: out.FunctionError, text, json };
}
