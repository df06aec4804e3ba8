import * as vscode from 'vscode';
import { isJobRef, parseJobArgument } from '../../core/jobs/reference';
import { isFinished, isStoppable, JOB_STATUSES, type JobStatus } from '../../core/jobs/status';
import type { JobsBackend, JobsSortBy } from '../../services/jobs/backend';
import { CONFIG_SCHEME, jobUri, type JobConfigurationProvider } from './documents';
import { LOGS_SCHEME, type JobLogsProvider } from './logsDocument';
import type { JobsModel } from '../../services/jobs/model';
import { JobNode, SectionNode, type RootNode } from '../../services/jobs/nodes';

interface JobsCommandContext {
  model: JobsModel;
  backend: JobsBackend;
  /** Reveals a job through the view's one redraw path; resolves to the node revealed. */
  reveal: (node: JobNode, options: { select: boolean; focus: boolean; expand: boolean }) => Promise<JobNode>;
  logs: JobLogsProvider;
  configuration: JobConfigurationProvider;
  explain: (error: unknown, action: string) => string;
  output: vscode.LogOutputChannel;
  /** Called after an action changed jobs, so polling can start. */
  changed: () => void;
}

/** A job from a command argument (tree node, `{ jobName, category, region }`, ARN, document URI or name), or picked from the listed jobs. */
async function jobOf(ctx: JobsCommandContext, arg: unknown): Promise<JobNode | undefined> {
  if (arg instanceof JobNode) return arg;
  if (arg instanceof SectionNode) return arg.parent;
  const job = parseJobArgument(arg);
  if (isJobRef(job)) return ctx.model.find(job);
  const all = ctx.model.getRoots().flatMap((r) => r.jobs);
  // A bare name: the listed job of that name, or a pick among the listed ones when none or several match.
  const named = job ? all.filter((node) => node.jobName === job.jobName && (!job.region || node.region === job.region)) : [];
  if (named.length === 1) return named[0];
  const listed = named.length ? named : all;
  if (!listed.length) {
    void vscode.window.showInformationMessage('No jobs are listed yet: open the Jobs view or refresh it first.');
    return undefined;
  }
  const picked = await vscode.window.showQuickPick(
    listed.map((node) => ({ label: node.jobName, description: `${node.status} · ${node.region}`, node })),
    { placeHolder: 'Pick a job' },
  );
  return picked?.node;
}

async function revealJob(ctx: JobsCommandContext, arg: unknown): Promise<JobNode | undefined> {
  try {
    const node = await jobOf(ctx, arg);
    if (!node) return undefined;
    const shown = await ctx.reveal(node, { select: true, focus: true, expand: false });
    ctx.changed();
    return shown;
  } catch (error) {
    void vscode.window.showErrorMessage(ctx.explain(error, 'Showing the job'));
    return undefined;
  }
}

/** Lists every root again and waits for it; returns what is listed (also read by tests and other features). */
async function refreshJobs(
  ctx: JobsCommandContext,
  arg: unknown,
): Promise<Array<{ region: string; category: string; jobs: Array<{ jobName: string; status: string }>; error?: string }>> {
  const root =
    (arg as { kind?: string })?.kind === 'root'
      ? (arg as RootNode)
      : (arg as { parent?: RootNode })?.parent?.kind === 'root'
        ? (arg as { parent: RootNode }).parent
        : undefined;
  ctx.model.refresh(root);
  const roots = ctx.model.getRoots();
  await Promise.all(roots.map((r) => ctx.model.ensureLoaded(r)));
  ctx.changed();
  return roots.map((r) => ({
    region: r.region,
    category: r.category,
    jobs: r.jobs.map((j) => ({ jobName: j.jobName, status: j.status })),
    error: r.error?.text,
  }));
}

async function stopJob(ctx: JobsCommandContext, arg: unknown): Promise<void> {
  const node = await jobOf(ctx, arg);
  if (!node) return;
  if (!isStoppable(node.status)) {
    void vscode.window.showInformationMessage(`${node.jobName} is ${node.status}; only a job in progress can be stopped.`);
    return;
  }
  const answer = await vscode.window.showWarningMessage(
    `Stop ${node.jobName}?`,
    {
      modal: true,
      detail:
        node.category === 'AgentRFT'
          ? 'The job stops running rollouts and billing tokens. Each finished step left a checkpoint: "Resume from Checkpoint" goes on from the last one later (only the remaining steps are billed); Launch Similar starts afresh.'
          : 'The job stops running rollouts and billing tokens. An evaluation keeps no checkpoint: Launch Similar runs it again from the start.',
    },
    'Stop Job',
  );
  if (answer !== 'Stop Job') return;
  try {
    await ctx.backend.stop(node.region, node.category, node.jobName);
    ctx.output.info(`Stopped ${node.jobName} (${node.region})`);
  } catch (error) {
    void vscode.window.showErrorMessage(ctx.explain(error, `Stopping ${node.jobName}`));
  }
  await ctx.model.refreshJob(node);
  ctx.configuration.update(node);
  ctx.changed();
}

async function deleteJob(ctx: JobsCommandContext, arg: unknown): Promise<void> {
  const node = await jobOf(ctx, arg);
  if (!node) return;
  if (!isFinished(node.status)) {
    void vscode.window.showInformationMessage(
      `${node.jobName} is ${node.status}; stop it and wait until it has stopped before deleting it.`,
    );
    return;
  }
  const answer = await vscode.window.showWarningMessage(
    `Delete ${node.jobName}?`,
    { modal: true, detail: 'The job record is removed from SageMaker. Its output in S3, model packages and MLflow runs stay.' },
    'Delete Job',
  );
  if (answer !== 'Delete Job') return;
  try {
    await ctx.backend.delete(node.region, node.category, node.jobName);
    ctx.output.info(`Deleted ${node.jobName} (${node.region})`);
    ctx.model.remove(node);
  } catch (error) {
    void vscode.window.showErrorMessage(ctx.explain(error, `Deleting ${node.jobName}`));
  }
}

async function openDocument(uri: vscode.Uri, at: 'top' | 'tail' = 'top'): Promise<vscode.TextEditor> {
  const doc = await vscode.workspace.openTextDocument(uri);
  // Logs open at their newest line, where a user looks first (as `tail` does).
  const end = new vscode.Position(Math.max(0, doc.lineCount - 1), 0);
  return vscode.window.showTextDocument(doc, { preview: true, selection: at === 'tail' ? new vscode.Range(end, end) : undefined });
}

const SORTS: Array<{ label: string; sortBy: JobsSortBy; ascending: boolean }> = [
  { label: 'Newest first', sortBy: 'CreationTime', ascending: false },
  { label: 'Oldest first', sortBy: 'CreationTime', ascending: true },
  { label: 'Name (A→Z)', sortBy: 'Name', ascending: true },
  { label: 'Name (Z→A)', sortBy: 'Name', ascending: false },
  { label: 'Status', sortBy: 'Status', ascending: true },
];

export function registerJobsCommands(ctx: JobsCommandContext): vscode.Disposable[] {
  const command = (id: string, run: (...args: unknown[]) => unknown) => vscode.commands.registerCommand(id, run);
  const withJob = (run: (node: JobNode) => unknown) => async (arg: unknown) => {
    const node = await jobOf(ctx, arg);
    if (node) return run(node);
  };
  return [
    command('mtrl.refreshJobs', (arg) => refreshJobs(ctx, arg)),
    command(
      'mtrl.refreshJob',
      // An open job document is fetched again too: a checkpoint or an end reason appears without closing it.
      withJob(async (node) => (await ctx.model.refreshJob(node), ctx.configuration.update(node), ctx.changed())),
    ),
    command('mtrl.revealJob', (arg) => revealJob(ctx, arg)),
    command('mtrl.loadMoreJobs', async (root) => (await ctx.model.loadMore(root as RootNode), ctx.changed())),
    command('mtrl.filterJobsByName', async () => {
      const value = await vscode.window.showInputBox({
        prompt: 'Show jobs whose name contains (empty: all)',
        value: ctx.model.query.nameContains ?? '',
      });
      if (value !== undefined) ctx.model.setQuery({ nameContains: value.trim() || undefined });
    }),
    command('mtrl.filterJobsByStatus', async () => {
      const picked = await vscode.window.showQuickPick(
        [
          { label: 'Any status', status: undefined },
          ...JOB_STATUSES.map((s): { label: string; status?: JobStatus } => ({ label: s, status: s })),
        ],
        { placeHolder: 'Show jobs with status' },
      );
      if (picked) ctx.model.setQuery({ status: picked.status });
    }),
    command('mtrl.clearJobsFilter', () => ctx.model.setQuery({ nameContains: undefined, status: undefined })),
    command('mtrl.sortJobs', async () => {
      const picked = await vscode.window.showQuickPick(SORTS, { placeHolder: 'Sort jobs by' });
      if (picked) ctx.model.setQuery({ sortBy: picked.sortBy, ascending: picked.ascending });
    }),
    command('mtrl.stopJob', (arg) => stopJob(ctx, arg)),
    command('mtrl.deleteJob', (arg) => deleteJob(ctx, arg)),
    command(
      'mtrl.openJobConfiguration',
      withJob((node) => openDocument(jobUri(CONFIG_SCHEME, node, 'json'))),
    ),
    command(
      'mtrl.openJobLogs',
      withJob((node) => openDocument(jobUri(LOGS_SCHEME, node, 'log'), 'tail')),
    ),
    command(
      'mtrl.copyJobArn',
      withJob(async (node) => {
        await vscode.env.clipboard.writeText(node.arn);
        vscode.window.setStatusBarMessage(`Copied ${node.arn}`, 3000);
      }),
    ),
    command(
      'mtrl.openJobInConsole',
      withJob((node) => vscode.env.openExternal(vscode.Uri.parse(consoleUrl(node)))),
    ),
    command('mtrl.loadOlderJobLogs', (uri) => ctx.logs.loadOlder(uri as vscode.Uri)),
    command('mtrl.loadNewerJobLogs', (uri) => ctx.logs.loadNewer(uri as vscode.Uri)),
    command('mtrl.followJobLogs', (uri) => {
      const target = (uri as vscode.Uri | undefined) ?? vscode.window.activeTextEditor?.document.uri;
      if (target?.scheme === LOGS_SCHEME) return ctx.logs.toggleFollow(target);
    }),
  ];
}

/** The SageMaker AI console page of the job's region and category. */
function consoleUrl(node: JobNode): string {
  const region = encodeURIComponent(node.region);
  return `https://${region}.console.aws.amazon.com/sagemaker/home?region=${region}#/jobs/${node.category}/${encodeURIComponent(node.jobName)}`;
}
