import type { LogLine } from './verdict';

/** What ties a log line to one smoke invocation. */
interface SmokeSession {
  sessionId: string;
  rolloutId: string;
}

const TRAJECTORY = /trajectory_id=(\S+)/;

/** Drops lines that belong to other rollouts sharing the runtime's log streams (a training job may be running on it). */
export function linesOfSession(lines: LogLine[], session: SmokeSession): LogLine[] {
  return lines.filter((line) => {
    const trajectory = TRAJECTORY.exec(line.message)?.[1];
    if (trajectory !== undefined && trajectory !== session.rolloutId) return false;
    // BedrockAgentCoreApp's JSON lines name their session.
    const sessionId = /"sessionId"\s*:\s*"([^"]*)"/.exec(line.message)?.[1];
    return sessionId === undefined || sessionId === session.sessionId;
  });
}

/** A CloudWatch filter pattern matching the lines that name this smoke invocation (its job ARN or session id). */
export function smokeFilterPattern(jobArn: string, sessionId: string): string {
  return `?"${jobArn}" ?"${sessionId}"`;
}
