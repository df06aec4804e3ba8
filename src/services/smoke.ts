import { invokeAgentRuntime } from '../aws/agentcore';
import type { AwsClients } from '../aws/clients';
import { explainerFor } from '../aws/errors';
import { describeLogStreams, filterLogEvents } from '../aws/logs';
import { callerIdentity } from '../aws/sts';
import { smokeFilterPattern, type InvocationOutcome, type LogLine, type SmokeBackend } from '../core/smoke';

// Shared by the editor command and the `mtrl smoke` command line.

/** How many of the newest streams to search for one named after the session. */
const NEWEST_STREAMS = 50;
/** FilterLogEvents accepts at most 100 stream names; one invocation writes to one or two. */
const MAX_STREAMS = 100;
/** A smoke invocation writes a handful of lines; stop reading a stream shared with a busy job. */
const MAX_LINES = 5_000;

interface ServiceError {
  name?: string;
  message?: string;
  $metadata?: { httpStatusCode?: number };
}

/** The smoke test's three calls over the project's AWS wrappers (STS, AgentCore data plane, CloudWatch Logs). */
export function awsSmokeBackend(aws: AwsClients): SmokeBackend {
  const explain = explainerFor(() => aws.current);
  return {
    async callerAccount(signal) {
      try {
        const identity = await callerIdentity(aws.sts(), signal);
        if (!identity.account) throw new Error('STS returned no account id.');
        return identity.account;
      } catch (error) {
        if (signal.aborted && (signal.reason as Error | undefined)?.name !== 'TimeoutError') throw error;
        throw new Error(explainerFor(() => aws.current, signal)(error, 'Asking STS for your account'), { cause: error });
      }
    },
    async invoke(request, signal): Promise<InvocationOutcome> {
      try {
        const result = await invokeAgentRuntime(
          aws.agentCore(request.region),
          { agentRuntimeArn: request.runtimeArn, qualifier: 'DEFAULT', payload: request.payload, runtimeSessionId: request.sessionId },
          signal,
        );
        return { kind: 'response', statusCode: result.statusCode, body: result.text };
      } catch (error) {
        if (signal.aborted) throw error;
        const e = (error ?? {}) as ServiceError;
        return {
          kind: 'error',
          name: e.name,
          statusCode: e.$metadata?.httpStatusCode,
          message: explain(error, 'InvokeAgentRuntime', request.region),
        };
      }
    },
    async logLines(request, signal): Promise<LogLine[]> {
      const client = aws.logs(request.region);
      const lines: LogLine[] = [];
      try {
        // First the streams that name this invocation, then every line of those streams since the call.
        const streams = new Set<string>();
        // AgentCore names a runtime's streams `<date>/[runtime-logs]<session id>`: look among the newest.
        let looked = 0;
        for await (const stream of describeLogStreams(client, request.logGroup, { newestFirst: true }, signal)) {
          if (stream.logStreamName?.includes(request.sessionId)) streams.add(stream.logStreamName);
          if (++looked >= NEWEST_STREAMS) break;
        }
        for await (const event of filterLogEvents(
          client,
          {
            logGroupName: request.logGroup,
            startTime: request.startTime,
            filterPattern: smokeFilterPattern(request.jobArn, request.sessionId),
          },
          signal,
        )) {
          if (event.logStreamName) streams.add(event.logStreamName);
          if (streams.size >= MAX_STREAMS) break;
        }
        if (!streams.size) return [];
        for await (const event of filterLogEvents(
          client,
          { logGroupName: request.logGroup, logStreamNames: [...streams], startTime: request.startTime },
          signal,
        )) {
          lines.push({ timestamp: event.timestamp ?? 0, message: event.message ?? '' });
          if (lines.length >= MAX_LINES) break;
        }
      } catch (error) {
        if (signal.aborted) throw error;
        // The group appears with the runtime's first output: absent means "nothing yet".
        if ((error as ServiceError).name === 'ResourceNotFoundException') return [];
        throw new Error(explain(error, `Reading ${request.logGroup}`, request.region), { cause: error });
      }
      return lines.sort((a, b) => a.timestamp - b.timestamp);
    },
  };
}
