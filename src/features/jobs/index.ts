import * as vscode from 'vscode';
import { describeAwsError } from '../../aws/errors';
import { pricingFromSetting, type PricingTable } from '../../core/jobs/pricing';
import { categoryLabel, isInProgress } from '../../core/jobs/status';
import { jobDiagnosis } from '../../core/jobs/summary';
import { jobRegions } from '../aws/settings';
import type { Services } from '../services';
import { sageMakerJobsBackend } from '../../services/jobs';
import { registerJobsCommands } from './commands';
import { CONFIG_SCHEME, JobConfigurationProvider } from './documents';
import { cloudWatchJobLogSource } from './logWindow';
import { JobLogsProvider, LOGS_SCHEME } from './logsDocument';
import { JobsModel, type StatusChange } from './model';
import { JobsPoller } from './poller';
import { JobsTreeProvider } from './tree';

const config = () => vscode.workspace.getConfiguration('mtrl');

/** The Jobs view: training and evaluation jobs per region, their documents and logs, polling and notifications. */
export function register(services: Services): void {
  const { context, output } = services;
  const explainFull = (error: unknown, action: string) => {
    const { profile, endpoint, region } = services.aws.current;
    const text = describeAwsError(error, { profile, endpoint, region, action });
    const name = (error as { name?: string } | undefined)?.name ?? '';
    return { text, noCredentials: name === 'CredentialsProviderError' || /could not load credentials|no AWS credentials/i.test(text) };
  };
  const explain = (error: unknown, action: string) => explainFull(error, action).text;

  let pricing: PricingTable = readPricing(output);
  let knownCommands = new Set<string>();
  const refreshKnownCommands = async () => {
    knownCommands = new Set(await vscode.commands.getCommands(true));
  };

  const backend = sageMakerJobsBackend((region) => services.aws.sagemaker(region));
  const model = new JobsModel({ backend, regions: jobRegions, explain: explainFull, hasRollouts: () => knownCommands.has('mtrl.openRollouts') });
  const tree = new JobsTreeProvider(model, () => pricing, (id) => knownCommands.has(id));
  const view = vscode.window.createTreeView('mtrl.jobs', { treeDataProvider: tree, showCollapseAll: true });
  const configuration = new JobConfigurationProvider(backend, explain);
  const logs = new JobLogsProvider((job) => cloudWatchJobLogSource(services.aws.logs(job.region), `/aws/sagemaker/Job/${job.category}`, job.jobName), explain);

  const seconds = () => Math.max(5, config().get<number>('jobs.refreshSeconds') ?? 30);
  const poller = new JobsPoller(
    {
      hasInProgress: () => model.inProgress().length > 0,
      poll: async () => notify(await model.refreshInProgress()),
    },
    seconds() * 1000,
  );
  const notify = (changes: StatusChange[]) => {
    for (const change of changes) {
      configuration.update(change.node);
      if (isInProgress(change.to) || !config().get<boolean>('jobs.notify', true)) continue;
      output.info(`${change.node.jobName}: ${change.from} → ${change.to}`);
      const diagnosis = change.node.details ? jobDiagnosis(change.node.details) : undefined;
      const text = `${categoryLabel(change.node.category)} job ${change.node.jobName} ${change.to === 'Completed' ? 'completed' : change.to === 'Stopped' ? 'stopped' : change.to === 'Failed' ? 'failed' : `is ${change.to}`}${diagnosis ? `: ${diagnosis.known ? diagnosis.title : diagnosis.reason}` : '.'}`;
      const show = change.to === 'Failed' ? vscode.window.showWarningMessage(text, 'Show') : vscode.window.showInformationMessage(text, 'Show');
      void show.then((answer) => answer && vscode.commands.executeCommand('mtrl.revealJob', change.node));
    }
  };

  const updateDescription = () => {
    view.description = model.filterDescription();
    void vscode.commands.executeCommand('setContext', 'mtrl.jobs.filtered', Boolean(model.query.nameContains || model.query.status));
  };
  context.subscriptions.push(
    tree,
    view,
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
    view.onDidChangeVisibility((e) => {
      if (e.visible) void refreshKnownCommands().then(() => tree.redraw());
      poller.setVisible(e.visible);
    }),
    services.onDidChangeAws(() => model.refresh()),
    vscode.workspace.onDidChangeConfiguration((e) => {
      if (e.affectsConfiguration('mtrl.pricing')) {
        pricing = readPricing(output);
        tree.redraw();
      }
      if (e.affectsConfiguration('mtrl.jobs.refreshSeconds')) poller.setInterval(seconds() * 1000);
    }),
    ...registerJobsCommands({ model, backend, view, logs, explain, output, changed: () => poller.reschedule() }),
  );
  void refreshKnownCommands().then(() => tree.redraw());
  poller.setVisible(view.visible);
}

function readPricing(output: vscode.LogOutputChannel): PricingTable {
  const { table, problems } = pricingFromSetting(config().get('pricing'));
  for (const problem of problems) output.warn(problem);
  if (problems.length) void vscode.window.showWarningMessage(problems[0]);
  return table;
}
