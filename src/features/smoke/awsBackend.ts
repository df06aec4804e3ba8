import { invokeAgentRuntime } from '../../aws/agentcore';
import type { AwsClients } from '../../aws/clients';
import { describeAwsError } from '../../aws/errors';
import { filterLogEvents } from '../../aws/logs';
import { callerIdentity } from '../../aws/sts';
import type { InvocationOutcome, LogLine, SmokeBackend } from '../../core/smoke';

// No vscode here: the `mtrl smoke` command line uses the same backend.

interface ServiceError {
  name?: string;
  message?: string;
  $metadata?: { httpStatusCode?: number };
}

/** The smoke test's three calls over the project's AWS wrappers (STS, AgentCore data plane, CloudWatch Logs). */
export function awsSmokeBackend(aws: AwsClients): SmokeBackend {
  const context = () => ({ profile: aws.current.profile, endpoint: aws.current.endpoint });
  return {
    async callerAccount(signal) {
      try {
        const identity = await callerIdentity(aws.sts(), signal);
        if (!identity.account) throw new Error('STS returned no account id.');
        return identity.account;
      } catch (error) {
        if (signal.aborted) throw error;
        throw new Error(describeAwsError(error, { ...context(), action: 'Asking STS for your account' }));
      }
    },
    async invoke(request, signal): Promise<InvocationOutcome> {
      try {
        const result = await invokeAgentRuntime(aws.agentCore(request.region), { agentRuntimeArn: request.runtimeArn, qualifier: 'DEFAULT', payload: request.payload, runtimeSessionId: request.sessionId }, signal);
        return { kind: 'response', statusCode: result.statusCode, body: result.text };
      } catch (error) {
        if (signal.aborted) throw error;
        const e = (error ?? {}) as ServiceError;
        return { kind: 'error', name: e.name, statusCode: e.$metadata?.httpStatusCode, message: describeAwsError(error, { ...context(), region: request.region, action: 'InvokeAgentRuntime' }) };
      }
    },
    async logLines(request, signal): Promise<LogLine[]> {
      const lines: LogLine[] = [];
      try {
        for await (const event of filterLogEvents(aws.logs(request.region), { logGroupName: request.logGroup, startTime: request.startTime }, signal)) {
          lines.push({ timestamp: event.timestamp ?? 0, message: event.message ?? '' });
        }
      } catch (error) {
        if (signal.aborted) throw error;
        // The group appears with the runtime's first output: absent means "nothing yet".
        if ((error as ServiceError).name === 'ResourceNotFoundException') return [];
        throw new Error(describeAwsError(error, { ...context(), region: request.region, action: `Reading ${request.logGroup}` }));
      }
      return lines.sort((a, b) => a.timestamp - b.timestamp);
    },
  };
}
