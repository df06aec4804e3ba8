import { createReadStream } from 'node:fs';
import * as vscode from 'vscode';
import { describeLogGroups, filterLogEvents } from '../../aws/logs';
import { describeJob } from '../../aws/sagemaker';
import { isJobRef, parseJobArgument } from '../../core/jobs/reference';
import { linesOf, type Rollout } from '../../core/rollouts';
import type { ReplaySource } from '../../shared/protocol';
import type { Services } from '../services';

/** Where new log text comes from and whether to keep polling it. */
export interface LogReader {
  /** Lines (or multi-line log messages) of the log, from where the last call stopped. */
  read(signal: AbortSignal): AsyncIterable<string>;
  /** Whether more may come (a running job): follow mode polls `read` again. */
  followable(signal: AbortSignal): Promise<boolean>;
  /** Whether a rollout belongs here: a runtime's log also holds other jobs' rollouts. */
  accepts(rollout: Rollout): boolean;
}

/** The AgentCore runtime's log group: `/aws/bedrock-agentcore/runtimes/<runtimeId>-<qualifier>`. */
export function runtimeLogGroup(runtimeArn: string, qualifier = 'DEFAULT'): string | undefined {
  const id = /:runtime\/([a-zA-Z0-9_-]+)$/.exec(runtimeArn)?.[1];
  return id ? `/aws/bedrock-agentcore/runtimes/${id}-${qualifier}` : undefined;
}

function fileReader(uri: vscode.Uri): LogReader {
  return {
    async *read(signal) {
      if (uri.scheme === 'file') yield* linesOf(createReadStream(uri.fsPath, { signal }) as AsyncIterable<Uint8Array>);
      else yield* linesOf([await vscode.workspace.fs.readFile(uri)]);
    },
    followable: async () => false,
    accepts: () => true,
  };
}

/** FilterLogEvents from `start`, then from the last event seen; events at the boundary millisecond are not read twice. */
function logGroupReader(services: Services, region: string | undefined, logGroupName: string, start: number, end: () => Promise<number | undefined>, running: (signal: AbortSignal) => Promise<boolean>, jobArn?: string): LogReader {
  let from = start;
  let seen = new Set<string>();
  return {
    async *read(signal) {
      const client = services.aws.logs(region);
      const endTime = await end();
      const boundary = new Set<string>();
      let last = from;
      for await (const event of filterLogEvents(client, { logGroupName, startTime: from, endTime }, signal)) {
        if (event.eventId && seen.has(event.eventId)) continue;
        const at = event.timestamp ?? last;
        if (at > last) {
          last = at;
          boundary.clear();
        }
        if (event.eventId && at === last) boundary.add(event.eventId);
        if (event.message !== undefined) yield event.message;
      }
      from = last;
      seen = boundary;
    },
    followable: running,
    accepts: (rollout) => !jobArn || !rollout.job_arn || rollout.job_arn === jobArn,
  };
}

export async function readerFor(services: Services, source: ReplaySource, signal: AbortSignal): Promise<LogReader> {
  if (source.kind === 'file') return fileReader(vscode.Uri.parse(source.uri));
  if (source.kind === 'logGroup') {
    return logGroupReader(services, source.region, source.logGroup, source.start, async () => source.end, async () => source.end === undefined);
  }
  if (source.kind === 'job') {
    const job = { jobName: source.jobName, category: source.category };
    const sagemaker = services.aws.sagemaker(source.region);
    const described = await describeJob(sagemaker, job, signal);
    const agent = described.config?.AgentConfig?.BedrockAgentCoreConfig;
    if (!agent?.AgentRuntimeArn) {
      const lambda = described.config?.AgentConfig?.CustomAgentLambdaConfig?.LambdaArn;
      throw new Error(lambda ? `Job ${source.jobName} runs a Lambda agent (${lambda}); open its CloudWatch log group with "MTRL: Open Rollouts" → log group.` : `Job ${source.jobName} names no AgentCore runtime in its AgentConfig, so there is no runtime log to read.`);
    }
    const group = runtimeLogGroup(agent.AgentRuntimeArn, agent.Qualifier ?? 'DEFAULT');
    if (!group) throw new Error(`Job ${source.jobName}'s runtime ARN ${agent.AgentRuntimeArn} does not name a runtime.`);
    const start = described.CreationTime?.getTime() ?? 0;
    const endOf = async (s?: AbortSignal) => (await describeJob(sagemaker, job, s)).EndTime?.getTime();
    let status = described.JobStatus;
    return logGroupReader(services, source.region, group, start, async () => (status === 'InProgress' ? undefined : (described.EndTime?.getTime() ?? (await endOf()))), async (s) => {
      status = (await describeJob(sagemaker, job, s)).JobStatus;
      return status === 'InProgress' || status === 'Stopping';
    }, described.JobArn);
  }
  throw new Error('The plain-browser fixture source only exists in the demo page.');
}

/** Asks where to read rollouts from when the command got no argument: a local file, or a log group and time range. */
export async function pickSource(services: Services): Promise<ReplaySource | undefined> {
  const choice = await vscode.window.showQuickPick(
    [
      { label: '$(file) Local log file…', detail: 'A runtime log, a CloudWatch export or `aws logs tail` output saved to disk', pick: 'file' as const },
      { label: '$(cloud) CloudWatch log group…', detail: 'An AgentCore runtime log group and a time range', pick: 'group' as const },
    ],
    { title: 'MTRL: Open Rollouts', placeHolder: 'Where are the rollouts logged?' },
  );
  if (!choice) return undefined;
  if (choice.pick === 'file') {
    const [uri] = (await vscode.window.showOpenDialog({ canSelectMany: false, filters: { 'Log files': ['log', 'jsonl', 'json', 'txt'], 'All files': ['*'] }, openLabel: 'Replay rollouts' })) ?? [];
    return uri ? { kind: 'file', uri: uri.toString(), label: vscode.workspace.asRelativePath(uri) } : undefined;
  }
  return pickLogGroup(services);
}

const RANGES = [
  { label: 'Last hour', ms: 3_600_000 },
  { label: 'Last 6 hours', ms: 6 * 3_600_000 },
  { label: 'Last 24 hours', ms: 24 * 3_600_000 },
  { label: 'Last 7 days', ms: 7 * 24 * 3_600_000 },
];

async function pickLogGroup(services: Services): Promise<ReplaySource | undefined> {
  const groups = vscode.window.createQuickPick();
  groups.title = 'MTRL: Open Rollouts — log group';
  groups.placeholder = 'AgentCore runtime log groups (type any log group name)';
  groups.busy = true;
  groups.show();
  const cancel = new AbortController();
  groups.onDidHide(() => cancel.abort());
  void (async () => {
    try {
      const items: vscode.QuickPickItem[] = [];
      for await (const group of describeLogGroups(services.aws.logs(), '/aws/bedrock-agentcore/runtimes/', cancel.signal)) items.push({ label: group.logGroupName ?? '' });
      groups.items = items.length ? items : [{ label: '/aws/bedrock-agentcore/runtimes/', description: 'no runtime log group found: type a name' }];
    } catch (error) {
      if (!cancel.signal.aborted) groups.items = [{ label: '$(error) Could not list log groups', detail: services.explain(error, 'List log groups') }];
    } finally {
      groups.busy = false;
    }
  })();
  const name = await new Promise<string | undefined>((resolve) => {
    groups.onDidAccept(() => resolve((groups.selectedItems[0]?.label ?? groups.value).replace(/^\$\([^)]*\)\s*/, '').trim() || undefined));
    groups.onDidHide(() => resolve(undefined));
  });
  groups.dispose();
  if (!name || !name.startsWith('/')) return undefined;
  const range = await vscode.window.showQuickPick(RANGES.map((r) => ({ ...r, description: 'follows new rollouts' })), { title: `MTRL: Open Rollouts — ${name}`, placeHolder: 'Time range' });
  if (!range) return undefined;
  return { kind: 'logGroup', logGroup: name, start: Date.now() - range.ms, region: services.aws.current.region, label: `${name} (${range.label.toLowerCase()})` };
}

/** What `mtrl.openRollouts` got: a job node or `{ jobName, category, region }`, a log file URI, `{ logGroup, start, end?, region? }`, or nothing. */
export function sourceFromArgument(arg: unknown): ReplaySource | undefined {
  if (arg instanceof vscode.Uri) return { kind: 'file', uri: arg.toString(), label: vscode.workspace.asRelativePath(arg) };
  const group = arg as { logGroup?: unknown; start?: unknown; end?: unknown; region?: unknown } | undefined;
  if (group && typeof group.logGroup === 'string' && typeof group.start === 'number') {
    const end = typeof group.end === 'number' ? group.end : undefined;
    const label = `${group.logGroup} (from ${new Date(group.start).toISOString()}${end ? ` to ${new Date(end).toISOString()}` : ''})`;
    return { kind: 'logGroup', logGroup: group.logGroup, start: group.start, end, region: typeof group.region === 'string' ? group.region : undefined, label };
  }
  const job = parseJobArgument(arg);
  return isJobRef(job) ? { kind: 'job', jobName: job.jobName, category: job.category, region: job.region, label: `${job.jobName} rollouts` } : undefined;
}
