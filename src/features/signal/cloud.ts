import * as vscode from 'vscode';
import { parseJobFile, type JobFile } from '../../core/jobs/jobfile';
import type { LaunchDeps, LaunchUi } from '../../services/launch/launch';
import { rewardVersionOf, type KeptSignalCheck, type SignalChecks } from '../../services/signal/checks';
import { describeCheckConfirmation, launchSignalCheck, signalCheckPlanFor, type SignalCheckPlan } from '../../services/signal/launchCheck';

/** What launches a cloud check: the planned training job, and (from tests or the launch review) answers given ahead. */
export interface CloudCheckRequest {
  training: JobFile;
  rows?: number;
  groupSize?: number;
  /** A reward version: a Lambda ARN:version, or the sha256 of a reward file (`sha256:…`). */
  reward?: string;
  /** `false`: tests only, no question and no dialog. */
  confirm?: boolean;
}

const TITLE = 'MTRL: Check Learning Signal in the Cloud';
const DEFAULT_ROWS = 16;
const ENTER_REWARD = '$(edit) Type a reward version (a Lambda ARN:version)…';

/** The planned training job: one of the workspace's training job files. */
export async function pickTrainingJob(): Promise<JobFile | undefined> {
  const files = await vscode.workspace.findFiles('**/*.mtrl.json', '**/node_modules/**', 200);
  const jobs: (vscode.QuickPickItem & { job: JobFile })[] = [];
  for (const uri of files) {
    const job = parseJobFile(new TextDecoder().decode(await vscode.workspace.fs.readFile(uri))).jobFile;
    if (job?.JobCategory === 'AgentRFT') jobs.push({ label: job.JobName, description: vscode.workspace.asRelativePath(uri), job });
  }
  if (!jobs.length) {
    void vscode.window.showInformationMessage(
      'No training job file (*.mtrl.json, AgentRFT) in the workspace: save one from the launch review, or choose "Run one" there.',
    );
    return undefined;
  }
  return (
    await vscode.window.showQuickPick(jobs, {
      title: TITLE,
      placeHolder: 'The planned training job (its data, runtime, model, group_size)',
    })
  )?.job;
}

/** The reward version the check is kept for: a workspace reward file's content hash, or a typed Lambda ARN:version. */
async function pickReward(): Promise<string | undefined> {
  const files = await vscode.workspace.findFiles('**/*reward*.py', '**/node_modules/**', 50);
  const items: (vscode.QuickPickItem & { uri?: vscode.Uri })[] = [
    ...files.map((uri) => ({
      label: `$(file-code) ${vscode.workspace.asRelativePath(uri)}`,
      description: 'its content is the version',
      uri,
    })),
    { label: ENTER_REWARD },
  ];
  const picked = await vscode.window.showQuickPick(items, {
    title: `${TITLE}: reward`,
    placeHolder: 'The reward this check is kept for: change it, and the next check is kept apart',
  });
  if (!picked) return undefined;
  if (picked.uri) return rewardVersionOf(Buffer.from(await vscode.workspace.fs.readFile(picked.uri)));
  return (
    await vscode.window.showInputBox({
      title: `${TITLE}: reward version`,
      placeHolder: 'arn:aws:lambda:us-east-1:111122223333:function:reward:3',
      validateInput: (v) => (v.trim() ? undefined : 'Name the reward version: a Lambda ARN with its version, or any label you keep to.'),
    })
  )?.trim();
}

/** Asks what the planned job does not say (reward, rows) and lets the user change the rest; undefined when dismissed. */
async function askPlan(training: JobFile, request: CloudCheckRequest): Promise<SignalCheckPlan | undefined> {
  const reward = request.reward ?? (request.confirm === false ? 'unversioned' : await pickReward());
  if (!reward) return undefined;
  const base = signalCheckPlanFor(training, { rows: request.rows ?? DEFAULT_ROWS, reward });
  if (request.confirm === false) return { ...base, groupSize: request.groupSize ?? base.groupSize };
  const dataset = await vscode.window.showInputBox({
    title: `${TITLE}: training data`,
    value: base.key.dataset,
    prompt: 'The rows are sampled from this dataset (with seed 1) and written beside it.',
    validateInput: (v) => (/^s3:\/\/[^/]+\/.+/.test(v.trim()) ? undefined : 'An s3://bucket/key URI of the training data.'),
  });
  if (!dataset) return undefined;
  const runtime = await vscode.window.showInputBox({
    title: `${TITLE}: agent runtime`,
    value: base.key.runtime,
    prompt: 'The AgentCore runtime plays the rollouts, unchanged.',
    validateInput: (v) => (v.trim().startsWith('arn:') ? undefined : 'The agent runtime ARN.'),
  });
  if (!runtime) return undefined;
  const rows = await vscode.window.showInputBox({
    title: `${TITLE}: rows`,
    value: String(request.rows ?? DEFAULT_ROWS),
    prompt: 'How many training rows to play: more rows, a surer share, a larger bill.',
    validateInput: (v) => (/^\d+$/.test(v.trim()) && Number(v) >= 1 && Number(v) <= 1000 ? undefined : 'A whole number from 1 to 1,000.'),
  });
  if (!rows) return undefined;
  const sizes = [...new Set([2, 4, 8, 16, base.groupSize])].sort((a, b) => a - b);
  const size = await vscode.window.showQuickPick(
    sizes.map((g) => ({ label: String(g), description: g === base.groupSize ? 'the planned group_size' : undefined, g })),
    { title: `${TITLE}: rollouts per row`, placeHolder: 'GRPO compares the rollouts of one task: use the planned group_size' },
  );
  if (!size) return undefined;
  return { ...base, key: { dataset: dataset.trim(), runtime: runtime.trim(), reward }, rows: Number(rows), groupSize: size.g };
}

/** The launch's questions as one modal: the figures and the cost, Launch Check or nothing. */
function confirmUi(plan: SignalCheckPlan): LaunchUi {
  return {
    review: async (job, review) => {
      if (review.checks.some((c) => c.level === 'fail')) return 'launch';
      const detail = describeCheckConfirmation(plan, review);
      const launch = 'Launch Check';
      const answer = await vscode.window.showWarningMessage(`Launch the signal check ${job.JobName}?`, { modal: true, detail }, launch);
      return answer === launch ? 'launch' : 'cancel';
    },
    // The warnings were in the modal just confirmed; a failed check or CreateJob's refusal is said once, by the caller.
    confirmWarnings: async () => true,
  };
}

/** Samples the rows and launches the evaluation under a cancellable progress, after the estimate is confirmed; the running check is kept. */
export async function launchCloudCheck(
  deps: LaunchDeps & { signalChecks: SignalChecks },
  request: CloudCheckRequest,
): Promise<KeptSignalCheck | undefined> {
  const plan = await askPlan(request.training, request);
  if (!plan) return undefined;
  const ui = request.confirm === false ? {} : confirmUi(plan);
  const result = await vscode.window.withProgress(
    { location: vscode.ProgressLocation.Notification, title: 'MTRL: signal check', cancellable: true },
    async (progress, token) => {
      const abort = new AbortController();
      token.onCancellationRequested(() => abort.abort());
      progress.report({ message: `sampling ${plan.rows} rows, then the pre-flight and the cost…` });
      return launchSignalCheck(plan, { ...deps, checks: deps.signalChecks }, ui, abort.signal);
    },
  );
  if (!result.launched && result.reason !== 'cancelled') {
    const why = `the signal check was not launched: ${result.reason ?? 'the launch stopped'}`;
    deps.log(`Learning signal: ${why}`, 'error');
    if (request.confirm !== false) void vscode.window.showErrorMessage(`MTRL: ${why}`);
  }
  return result.check;
}
