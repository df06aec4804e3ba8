import * as vscode from 'vscode';
import { isJobRef, parseJobArgument } from '../../core/jobs/reference';
import type { JobCategory } from '../../core/jobs/status';
import { jobReader, localReader, localTasks, logGroupReader, streamReader, type RolloutReader } from '../../services/rollouts';
import { runtimeLogGroups } from '../../services/rollouts/logGroups';
import type { ReplaySource } from '../../shared/protocol';
import type { Services } from '../services';

/** A local file or folder read from disk (traces or log lines, sniffed); any other scheme through VS Code's file system. */
function fileReader(uri: vscode.Uri): RolloutReader {
  return uri.scheme === 'file' ? localReader(uri.fsPath) : streamReader(async () => [await vscode.workspace.fs.readFile(uri)]);
}

export async function readerFor(services: Services, source: ReplaySource, signal: AbortSignal): Promise<RolloutReader> {
  if (source.kind === 'file') {
    const reader = fileReader(vscode.Uri.parse(source.uri));
    if (!source.data) return reader;
    const tasks = localTasks(vscode.Uri.parse(source.data).fsPath);
    return { ...reader, context: async () => ({ tasks: await tasks }) };
  }
  if (source.kind === 'logGroup') {
    return logGroupReader(services.aws, {
      region: source.region,
      logGroupName: source.logGroup,
      start: source.start,
      end: async () => source.end,
      running: async () => source.end === undefined,
    });
  }
  if (source.kind === 'job')
    return jobReader(
      services.aws,
      { jobName: source.jobName, category: source.category as JobCategory, region: source.region },
      signal,
      source.from ?? 'best',
      (limit) =>
        services.output.warn(`Replay: read the newest ${limit.toLocaleString()} traces of ${source.jobName}; older ones were not read.`),
    );
  throw new Error('The plain-browser fixture source only exists in the demo page.');
}

/** Asks where to read rollouts from when the command got no argument: a local file, or a log group and time range. */
export async function pickSource(services: Services): Promise<ReplaySource | undefined> {
  const choice = await vscode.window.showQuickPick(
    [
      {
        label: '$(file) Local log file…',
        detail:
          'A runtime log, a CloudWatch export, `aws logs tail` output, or MLflow traces (traces.json, a traces/search or batchGet response)',
        pick: 'file' as const,
      },
      { label: '$(cloud) CloudWatch log group…', detail: 'An AgentCore runtime log group and a time range', pick: 'group' as const },
    ],
    // Run from the walkthrough, whose step takes focus back as it ticks: the question must not close under the user.
    { title: 'MTRL: Open Rollouts', placeHolder: 'Where are the rollouts logged?', ignoreFocusOut: true },
  );
  if (!choice) return undefined;
  if (choice.pick === 'file') {
    const [uri] =
      (await vscode.window.showOpenDialog({
        canSelectMany: false,
        filters: { 'Log files': ['log', 'jsonl', 'json', 'txt'], 'All files': ['*'] },
        openLabel: 'Replay rollouts',
      })) ?? [];
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
      for await (const name of runtimeLogGroups(services.aws, cancel.signal)) items.push({ label: name });
      groups.items = items.length
        ? items
        : [{ label: '/aws/bedrock-agentcore/runtimes/', description: 'no runtime log group found: type a name' }];
    } catch (error) {
      if (!cancel.signal.aborted)
        groups.items = [{ label: '$(error) Could not list log groups', detail: services.explain(error, 'List log groups') }];
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
  const range = await vscode.window.showQuickPick(
    RANGES.map((r) => ({ ...r, description: 'follows new rollouts' })),
    { title: `MTRL: Open Rollouts — ${name}`, placeHolder: 'Time range' },
  );
  if (!range) return undefined;
  return {
    kind: 'logGroup',
    logGroup: name,
    start: Date.now() - range.ms,
    region: services.aws.current.region,
    label: `${name} (${range.label.toLowerCase()})`,
  };
}

/** What `mtrl.openRollouts` got: a job node or `{ jobName, category, region, from? }`, a log file URI, `{ logGroup, start, end?, region? }`, or nothing. */
export function sourceFromArgument(arg: unknown): ReplaySource | undefined {
  if (arg instanceof vscode.Uri) return { kind: 'file', uri: arg.toString(), label: vscode.workspace.asRelativePath(arg) };
  const group = arg as { logGroup?: unknown; start?: unknown; end?: unknown; region?: unknown } | undefined;
  if (group && typeof group.logGroup === 'string' && typeof group.start === 'number') {
    const end = typeof group.end === 'number' ? group.end : undefined;
    const label = `${group.logGroup} (from ${new Date(group.start).toISOString()}${end ? ` to ${new Date(end).toISOString()}` : ''})`;
    return {
      kind: 'logGroup',
      logGroup: group.logGroup,
      start: group.start,
      end,
      region: typeof group.region === 'string' ? group.region : undefined,
      label,
    };
  }
  const job = parseJobArgument(arg);
  if (!isJobRef(job)) return undefined;
  const from = (arg as { from?: unknown } | undefined)?.from;
  return {
    kind: 'job',
    jobName: job.jobName,
    category: job.category,
    region: job.region,
    ...(from === 'log' || from === 'traces' ? { from } : {}),
    label: from === 'traces' ? `${job.jobName} rollouts (MLflow traces)` : `${job.jobName} rollouts`,
  };
}
