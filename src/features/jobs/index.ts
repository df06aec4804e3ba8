import * as vscode from 'vscode';
import { categoryLabel, isInProgress } from '../../core/jobs/status';
import { jobDiagnosis } from '../../core/jobs/summary';
import { jobRegions } from '../aws/settings';
import type { Services } from '../services';
import { sageMakerJobsBackend } from '../../services/jobs/backend';
import { askBudget, checkBudgets } from './budgetGuard';
import { registerJobsCommands } from './commands';
import { CONFIG_SCHEME, JobConfigurationProvider } from './documents';
import { cloudWatchJobLogSource } from '../../services/jobs/logWindow';
import { JobLogsProvider, LOGS_SCHEME } from './logsDocument';
import { JobsModel, type StatusChange } from '../../services/jobs/model';
import { JobsPoller } from '../../services/jobs/poller';
import { JobNode } from '../../services/jobs/nodes';
import { JobsTreeProvider } from './tree';
import type { JobsView } from './contributed';
import type { TestProbes } from '../testHooks';
import { HealthMarks } from '../health/marks';
import type { HealthWatch } from '../health/watch';
import { healthWatchClass } from '../health/load';

/** How a notification says a job ended. */
const ENDED: Record<string, string> = { Completed: 'completed', Stopped: 'stopped', Failed: 'failed' };

/** The Jobs view: training and evaluation jobs per region, their documents and logs, polling and notifications. */
export function register(services: Services): JobsView & Pick<TestProbes, 'jobHealth'> {
  const { context, output, settings, explain } = services;

  const backend = sageMakerJobsBackend(services.aws);
  // The replay feature registers mtrl.openRollouts in this same extension: every job has a rollouts section.
  const model = new JobsModel({ backend, regions: jobRegions, explain: explain.explained, hasRollouts: () => true });
  const marks = new HealthMarks();
  const tree = new JobsTreeProvider(
    model,
    () => settings.pricing(),
    (message) => output.warn(message),
    (node) => (settings.get('health.enabled') ? marks.get(node.id) : undefined),
  );
  let watch: HealthWatch | undefined;
  const checkHealth = (nodes: JobNode[]): Promise<void> => {
    if (!settings.get('health.enabled') || !nodes.length) return Promise.resolve();
    watch ??= new (healthWatchClass())(services, marks);
    return watch.check(nodes);
  };
  const listedJobs = () => model.getRoots().flatMap((root) => root.jobs);
  const view = vscode.window.createTreeView('mtrl.jobs', { treeDataProvider: tree, showCollapseAll: true, canSelectMany: true });
  const configuration = new JobConfigurationProvider(backend, explain);
  const logs = new JobLogsProvider((job) => cloudWatchJobLogSource(services.aws, job), explain);

  const seconds = () => settings.get('jobs.refreshSeconds');
  const poller = new JobsPoller(
    {
      hasInProgress: () => model.inProgress().length > 0,
      poll: async () => {
        notify(await model.refreshInProgress());
        await checkBudgets(budgetGuard, model.inProgress());
        void checkHealth(model.inProgress());
      },
    },
    seconds() * 1000,
  );
  const budgets = services.stores.budgets;
  const budgetGuard = {
    store: budgets,
    pricing: () => settings.pricing(),
    output,
    stop: async (node: JobNode) => {
      await backend.stop(node.region, node.category, node.jobName);
      await model.refreshJob(node);
      poller.reschedule();
    },
  };
  const setBudget = async (arg: unknown) => {
    const node =
      arg instanceof JobNode
        ? arg
        : (
            await vscode.window.showQuickPick(
              model.inProgress().map((n) => ({ label: n.jobName, description: n.region, n })),
              { placeHolder: 'Pick a running job' },
            )
          )?.n;
    if (!node) return undefined;
    const budget = await askBudget(budgets, node);
    if (budget) await checkBudgets(budgetGuard, [node]);
    return budget;
  };
  const notify = (changes: StatusChange[]) => {
    for (const change of changes) {
      configuration.update(change.node);
      if (isInProgress(change.to) || !settings.get('jobs.notify')) continue;
      output.info(`${change.node.jobName}: ${change.from} → ${change.to}`);
      const diagnosis = change.node.details ? jobDiagnosis(change.node.details) : undefined;
      const what = ENDED[change.to] ?? `is ${change.to}`;
      const why = diagnosis ? `: ${diagnosis.known ? diagnosis.title : diagnosis.reason}` : '.';
      const text = `${categoryLabel(change.node.category)} job ${change.node.jobName} ${what}${why}`;
      const show =
        change.to === 'Failed' ? vscode.window.showWarningMessage(text, 'Show') : vscode.window.showInformationMessage(text, 'Show');
      void show.then((answer) => answer && vscode.commands.executeCommand('mtrl.revealJob', change.node));
    }
  };

  const updateDescription = () => {
    view.description = model.filterDescription();
    void vscode.commands.executeCommand('setContext', 'mtrl.jobs.filtered', Boolean(model.query.nameContains || model.query.status));
  };
  // Finished jobs are checked once, after a listing described them.
  let listing: ReturnType<typeof setTimeout> | undefined;
  context.subscriptions.push(
    marks,
    marks.onDidChange((id) => {
      const node = listedJobs().find((j) => j.id === id);
      if (node) tree.redrawJob(node);
    }),
    model.onDidChange(() => {
      clearTimeout(listing);
      listing = setTimeout(() => void checkHealth(listedJobs()), 1_000);
    }),
    { dispose: () => clearTimeout(listing) },
    settings.onDidChange(['health'], () => tree.redraw()),
    tree,
    view,
    tree.track(view),
    poller,
    configuration,
    logs,
    vscode.workspace.registerTextDocumentContentProvider(CONFIG_SCHEME, configuration),
    vscode.workspace.registerTextDocumentContentProvider(LOGS_SCHEME, logs),
    vscode.languages.registerCodeLensProvider({ scheme: LOGS_SCHEME }, logs),
    model.onDidChange(() => {
      updateDescription();
      poller.reschedule();
    }),
    // Polling pauses while nobody can see the tree.
    view.onDidChangeVisibility((e) => poller.setVisible(e.visible)),
    services.onDidChangeAws(() => model.refresh()),
    settings.onDidChange(['pricing'], () => tree.redraw()),
    settings.onDidChange(['jobs.refreshSeconds'], () => poller.setInterval(seconds() * 1000)),
    vscode.commands.registerCommand('mtrl.setJobBudget', setBudget),
    ...registerJobsCommands({
      model,
      backend,
      reveal: (node, options) => tree.reveal(node, options),
      logs,
      configuration,
      explain,
      output,
      changed: () => poller.reschedule(),
    }),
  );
  poller.setVisible(view.visible);
  return {
    contribute: (contribution) => tree.contribute(contribution),
    // For tests: what a job's row says of its health.
    jobHealth: async (ref) => {
      const node = await model.find(ref);
      if (!node) return undefined;
      await checkHealth([node]);
      const item = tree.getTreeItem(node);
      const markdown = item.tooltip instanceof vscode.MarkdownString ? item.tooltip : undefined;
      return {
        report: marks.get(node.id),
        description: item.description,
        tooltip: markdown?.value ?? item.tooltip,
        // The commands the tooltip's links may run.
        commands: typeof markdown?.isTrusted === 'object' ? markdown.isTrusted.enabledCommands : [],
        icon: (item.iconPath as vscode.ThemeIcon | undefined)?.id,
      };
    },
    resetForTests: async (options) => {
      poller.hold(!options.polling);
      // Lists again only when a check left a filter or sort: a redraw for nothing would move rows under the next clicks.
      const { nameContains, status, sortBy, ascending } = model.query;
      if (nameContains || status || sortBy !== 'CreationTime' || ascending) {
        model.setQuery({ nameContains: undefined, status: undefined, sortBy: 'CreationTime', ascending: false });
      }
      await Promise.all(model.getRoots().map((root) => model.ensureLoaded(root)));
      await tree.quiet();
    },
  };
}
