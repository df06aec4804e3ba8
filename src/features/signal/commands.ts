import * as vscode from 'vscode';
import { isJobRef, parseJobArgument } from '../../core/jobs/reference';
import type { JobFile } from '../../core/jobs/jobfile';
import { jobsIn } from '../../services/jobs/lookup';
import type { KeptSignalCheck } from '../../services/signal/checks';
import { SIGNAL_VIEW, type PersistedSignal, type SignalSource } from '../../shared/signal';
import { openViewPanel } from '../../webview-kit/panel';
import type { Launcher } from '../launch/launcher';
import type { Services } from '../services';
import { launchCloudCheck, pickTrainingJob, type CloudCheckRequest } from './cloud';
import { exportSignalReport } from './exportReport';
import { keptSignal, keptSource, loadKept, pickKeptCheck } from './kept';
import { isKey, restoredSource } from './restore';
import { SignalPanel, type BoardRead, type SignalLoader } from './panel';
import { loadSignal, type LoadedSignal } from './sources';

/** What Check Learning Signal got: a file or folder (a URI, or its path from a command link), an evaluation job (a Jobs-view node, `{ jobName, category, region }`, an ARN). */
function sourceFromArgument(arg: unknown, region: string): SignalSource | undefined {
  const uri =
    typeof arg === 'string' && !arg.startsWith('arn:')
      ? /^\w[\w+.-]+:\/\//.test(arg)
        ? vscode.Uri.parse(arg)
        : vscode.Uri.file(arg)
      : arg;
  if (uri instanceof vscode.Uri) return { kind: 'file', uri: uri.toString(), label: vscode.workspace.asRelativePath(uri) };
  const job = parseJobArgument(arg);
  if (!isJobRef(job) || job.category !== 'AgentRFTEvaluation') return undefined;
  return { kind: 'job', jobName: job.jobName, region: job.region ?? region, label: `evaluation job ${job.jobName}` };
}

/** The evaluation jobs of the current region, newest first. */
async function pickEvaluationJob(services: Services): Promise<SignalSource | undefined> {
  const region = services.aws.current.region;
  const items = (async () => {
    try {
      const found: (vscode.QuickPickItem & { jobName: string })[] = [];
      for await (const s of jobsIn(services.aws, region, {
        JobCategory: 'AgentRFTEvaluation',
        SortBy: 'CreationTime',
        SortOrder: 'Descending',
        MaxResults: 50,
      })) {
        found.push({ label: s.JobName ?? '', description: s.JobStatus, jobName: s.JobName ?? '' });
        if (found.length >= 100) break;
      }
      if (!found.length) void vscode.window.showInformationMessage(`No evaluation job in ${region}.`);
      return found;
    } catch (error) {
      void vscode.window.showErrorMessage(services.explain(error, 'Listing evaluation jobs', region));
      return [];
    }
  })();
  const picked = await vscode.window.showQuickPick(items, {
    title: 'MTRL: Check Learning Signal — evaluation job',
    placeHolder: 'An evaluation whose eval_group_size is the planned group_size',
  });
  return picked && { kind: 'job', jobName: picked.jobName, region, label: `evaluation job ${picked.jobName}` };
}

type Route = 'file' | 'job' | 'kept' | 'cloud';

/** Where the rollouts come from, asked when the command got no argument; `cloud`: launch a check for a planned training job. */
async function pickSource(services: Services, kept: () => Promise<SignalSource | undefined>): Promise<SignalSource | 'cloud' | undefined> {
  const routes: (vscode.QuickPickItem & { route: Route })[] = [
    {
      label: '$(file) Local rollouts file or folder…',
      detail: 'A runtime log, MLflow traces, or transcripts saved by mtrl signal --local --transcripts-out: the report comes right away',
      route: 'file',
    },
    { label: '$(beaker) An evaluation job…', detail: 'Its rollouts (eval_group_size per task), read from its traces or log', route: 'job' },
    {
      label: '$(cloud) Launch a check in the cloud…',
      detail: "An evaluation job on a few rows of the planned training job's data, any agent unchanged: estimated and confirmed first",
      route: 'cloud',
    },
    { label: '$(history) A kept check…', detail: 'The latest check of a dataset, runtime and reward version', route: 'kept' },
  ];
  // Run from the walkthrough, whose step takes focus back as it ticks: the question must not close under the user.
  const choice = await vscode.window.showQuickPick(routes, {
    title: 'MTRL: Check Learning Signal',
    placeHolder: 'Will this run learn? Where are the rollouts (G per task)?',
    ignoreFocusOut: true,
  });
  if (choice?.route === 'file') {
    const [uri] =
      (await vscode.window.showOpenDialog({
        canSelectFiles: true,
        canSelectFolders: true,
        canSelectMany: false,
        openLabel: 'Check learning signal',
        filters: { Rollouts: ['log', 'jsonl', 'json', 'txt'], 'All files': ['*'] },
      })) ?? [];
    return uri && sourceFromArgument(uri, services.aws.current.region);
  }
  if (choice?.route === 'job') return pickEvaluationJob(services);
  if (choice?.route === 'kept') return kept();
  return choice?.route === 'cloud' ? 'cloud' : undefined;
}

/** Launch a cloud check from the palette or the launch review: `{ training: JobFile, rows?, groupSize?, reward?, confirm? }`. */
const isCloudRequest = (arg: unknown): arg is CloudCheckRequest => {
  const training = (arg as { training?: Partial<JobFile> } | null)?.training;
  return !!training && typeof training === 'object' && training.JobCategory === 'AgentRFT' && typeof training.JobName === 'string';
};

/** The bodies of the learning-signal commands, loaded on first use (dist/signal.js): index.ts registers them at activation. */
export function signalCommands(services: Services, launcher: Launcher, boardRead: BoardRead) {
  const deps = launcher.deps;
  const checks = deps.signalChecks;
  const load: SignalLoader = (source, signal) =>
    source.kind === 'kept'
      ? loadKept(
          checks,
          source.key,
          { aws: services.aws, explain: services.explain, checks, pricing: () => services.settings.pricing() },
          signal,
        )
      : loadSignal(services, source, signal);

  /** The source's panel, brought forward (and read again) when it is open, else a new one. */
  const show = (source: SignalSource, given?: LoadedSignal): SignalPanel => {
    const open = SignalPanel.find(source);
    if (open) {
      open.panel.reveal();
      void open.reload();
      return open;
    }
    const panel = openViewPanel(SIGNAL_VIEW, `Learning signal: ${source.label}`, { extensionUri: services.context.extensionUri });
    return new SignalPanel(panel, services, source, load, boardRead, given);
  };

  const pickKept = async (): Promise<SignalSource | undefined> => {
    const check = await pickKeptCheck(checks);
    return check && keptSource(check.key);
  };

  /** Launches, keeps and shows a running cloud check; returns it (the launch review shows it then). */
  const cloud = async (request: CloudCheckRequest): Promise<KeptSignalCheck | undefined> => {
    const check = await launchCloudCheck(deps, request);
    if (check) show(keptSource(check.key), keptSignal(check));
    return check;
  };

  const checkSignal = async (arg?: unknown): Promise<KeptSignalCheck | undefined> => {
    if (isCloudRequest(arg)) return cloud(arg);
    const source = arg === undefined ? await pickSource(services, pickKept) : sourceFromArgument(arg, services.aws.current.region);
    if (source === 'cloud') {
      const training = await pickTrainingJob();
      return training && cloud({ training });
    }
    if (source) show(source);
    else if (arg !== undefined)
      void vscode.window.showErrorMessage(
        'MTRL: Check Learning Signal takes a rollouts file or folder, an evaluation job, or nothing (then it asks).',
      );
    return undefined;
  };

  const showReport = async (key?: unknown): Promise<void> => {
    if (isKey(key)) return void show(keptSource(key));
    const check = await pickKeptCheck(checks);
    if (check) show(keptSource(check.key), keptSignal(check));
  };

  /** What the report in front shows, as the page reported drawing it (for tests). */
  const signalView = () => {
    const current = SignalPanel.current;
    return current && { source: current.source, drawn: current.drawn };
  };

  /** A panel a window reload gave back: its report again, or closed when its source no longer reads. */
  const restore = (panel: vscode.WebviewPanel, state: PersistedSignal | undefined): void => {
    const source = restoredSource(state?.source);
    if (!source) return panel.dispose();
    new SignalPanel(panel, services, source, load, boardRead);
  };

  /** Export Report… on the report in front (or the last one opened). */
  const exportReport = (given?: unknown) => exportSignalReport(services, SignalPanel.current, given);

  return { checkSignal, showReport, signalView, restore, exportReport };
}

export type SignalCommands = ReturnType<typeof signalCommands>;
