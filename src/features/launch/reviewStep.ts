import * as vscode from 'vscode';
import { formatDollars } from '../../core/jobs/pricing';
import { serializeJobFile, type JobFile } from '../../core/jobs/jobfile';
import type { CheckResult } from '../../core/jobs/preflight';
import { askForBudget } from '../jobs/budgetGuard';
import { describeSignalCheck, type Review } from '../../services/launch/review';
import type { KeptSignalCheck } from '../../services/signal/checks';
import { askForNotifications, notificationsItem } from './notificationsStep';
import { BACK, CANCEL, numberedTitle, type StepOutcome, type StepPosition } from './wizardInput';

type Action = 'launch' | 'open' | 'save' | 'budget' | 'notifications' | 'showSignal' | 'checkSignal';
interface ReviewItem extends vscode.QuickPickItem {
  action?: Action;
}

const CHECK_ICON: Record<CheckResult['level'], string> = { pass: '$(pass)', warn: '$(warning)', fail: '$(error)' };

function items(job: JobFile, review: Review): ReviewItem[] {
  const fails = review.checks.filter((c) => c.level === 'fail').length;
  const warns = review.checks.filter((c) => c.level === 'warn').length;
  const launch: ReviewItem =
    fails > 0
      ? {
          label: `$(circle-slash) Cannot launch: ${fails} check${fails > 1 ? 's' : ''} failed`,
          detail: 'Fix the lines marked $(error) below, then go Back or launch from a job file.',
        }
      : {
          label: `$(rocket) Launch ${job.JobName}`,
          action: 'launch',
          detail: warns ? `${warns} warning${warns > 1 ? 's' : ''}: you will be asked to confirm.` : 'Every check passed.',
        };
  return [
    launch,
    { label: '$(json) Open the JobConfigDocument in an editor', action: 'open' },
    { label: '$(save) Save as job file…', action: 'save', detail: 'A *.mtrl.json file you can validate, launch again and keep in git.' },
    { label: 'Arithmetic', kind: vscode.QuickPickItemKind.Separator },
    ...review.arithmetic.map((line) => ({ label: `$(symbol-numeric) ${line}` })),
    { label: 'Cost', kind: vscode.QuickPickItemKind.Separator },
    review.estimate
      ? {
          label: `$(credit-card) ${formatDollars(review.estimate.low)} – ${formatDollars(review.estimate.high)} in tokens`,
          detail: `Per-rollout averages of ${review.estimate.basis}; AgentCore compute is billed apart.`,
        }
      : { label: `$(credit-card) ${review.estimateMissing}` },
    ...signalItems(review),
    job.Budget
      ? {
          label: `$(shield) Budget ${formatDollars(job.Budget.Dollars)}: ${job.Budget.AutoStop ? 'stop the job' : 'warn'} when the estimate passes it`,
          action: 'budget',
          detail: 'Choose to change it.',
        }
      : {
          label: '$(shield) No budget: choose to set one (opt-in)',
          action: 'budget',
          detail: 'Warns (or stops the job, if you choose) when its estimated token cost passes the budget.',
        },
    { ...notificationsItem(job), action: 'notifications' },
    { label: 'Pre-flight', kind: vscode.QuickPickItemKind.Separator },
    ...review.checks.map((c) => ({ label: `${CHECK_ICON[c.level]} ${c.message}`, detail: c.level === 'pass' ? undefined : c.fix })),
    // Last: the long reference list, after what the launch decision rests on (cost, budget, pre-flight).
    { label: 'Settings (value and where it comes from)', kind: vscode.QuickPickItemKind.Separator },
    ...review.settings.map((s) => ({ label: `$(settings) ${s.name} = ${s.value}`, description: s.source })),
  ];
}

/** Beside the cost: the latest learning-signal check of a training job's dataset and runtime, to open, or to run when there is none. */
function signalItems(review: Review): ReviewItem[] {
  if (!review.signal) return [];
  const check = review.signal.check;
  if (!check)
    return [
      {
        label: `$(pulse) ${describeSignalCheck(undefined)} Choose to run one`,
        action: 'checkSignal',
        detail:
          'An evaluation of a few training rows × group_size rollouts: will GRPO learn from them? Estimated and confirmed before it starts.',
      },
    ];
  return [
    {
      label: `$(pulse) ${describeSignalCheck(check)}`,
      action: 'showSignal',
      detail: `Choose to open the report (reward version ${check.key.reward.replace(/^sha256:/, '').slice(0, 12) || 'unnamed'}).`,
    },
  ];
}

/** The last step: the figures and checks, with actions to open the document, save a job file or launch. Info lines do nothing. */
export async function reviewStep(
  job: JobFile,
  review: Review,
  position: StepPosition,
  save: (job: JobFile) => Promise<void>,
  checkNotifications: (job: JobFile) => Promise<CheckResult | undefined>,
): Promise<StepOutcome<'launch'>> {
  const pick = vscode.window.createQuickPick<ReviewItem>();
  pick.title = `${position.title}: review`;
  pick.step = position.step;
  pick.totalSteps = position.totalSteps;
  pick.placeholder = 'Review, then choose Launch';
  pick.ignoreFocusOut = true;
  pick.matchOnDetail = true;
  pick.buttons = [vscode.QuickInputButtons.Back];
  pick.items = items(job, review);
  const disposables: vscode.Disposable[] = [pick];
  let asking = false;
  try {
    return await new Promise<StepOutcome<'launch'>>((resolve) => {
      disposables.push(
        pick.onDidTriggerButton(() => resolve(BACK)),
        // Asking for the budget hides the review for a moment: that is not a cancel.
        pick.onDidHide(() => asking || resolve(CANCEL)),
        pick.onDidAccept(async () => {
          const action = pick.selectedItems[0]?.action;
          if (action === 'launch') resolve('launch');
          else if (action === 'open') await openDocument(job);
          else if (action === 'save') await save(job);
          else if (action === 'showSignal' && review.signal?.check)
            await vscode.commands.executeCommand('mtrl.showLearningSignalReport', review.signal.check.key);
          else if (action === 'checkSignal') {
            // The check asks its own questions (rows, reward, the cost): the review comes back with the running check.
            asking = true;
            const check = await vscode.commands.executeCommand<KeptSignalCheck | undefined>('mtrl.checkLearningSignal', { training: job });
            if (check) review.signal = { check };
            asking = false;
            pick.items = items(job, review);
            pick.show();
          } else if (action === 'notifications') {
            asking = true;
            const chosen = await askForNotifications(job.Notifications, job.Region, (what) => numberedTitle(position, what));
            if (chosen !== undefined) {
              job.Notifications = chosen ?? undefined;
              // The launch goes by these checks: the new topic's line replaces the old one before Launch is offered.
              pick.busy = true;
              const line = await checkNotifications(job);
              review.checks = [...review.checks.filter((c) => c.check !== 'notifications'), ...(line ? [line] : [])];
              pick.busy = false;
            }
            asking = false;
            pick.items = items(job, review);
            pick.show();
          } else if (action === 'budget') {
            asking = true;
            const budget = await askForBudget(
              job.JobName,
              job.Budget && { dollars: job.Budget.Dollars, autoStop: job.Budget.AutoStop === true },
              undefined,
              (what) => numberedTitle(position, what),
            );
            if (budget) job.Budget = { Dollars: budget.dollars, AutoStop: budget.autoStop };
            asking = false;
            pick.items = items(job, review);
            pick.show();
          }
          pick.selectedItems = [];
        }),
      );
      pick.show();
    });
  } finally {
    for (const d of disposables) d.dispose();
  }
}

/** The document as the service will receive it, in an untitled JSON editor beside the wizard. */
async function openDocument(job: JobFile): Promise<void> {
  const document = await vscode.workspace.openTextDocument({
    language: 'json',
    content: `${JSON.stringify(job.JobConfigDocument, null, 2)}\n`,
  });
  await vscode.window.showTextDocument(document, { preview: true, preserveFocus: true, viewColumn: vscode.ViewColumn.Beside });
}

/** Asks where (unless given a target), then writes the job file with an undoable WorkspaceEdit and opens it. */
export async function saveJobFile(job: JobFile, given?: vscode.Uri): Promise<vscode.Uri | undefined> {
  const base = vscode.workspace.workspaceFolders?.[0]?.uri;
  const target =
    given ??
    (await vscode.window.showSaveDialog({
      title: 'Save job file',
      defaultUri: base ? vscode.Uri.joinPath(base, `${job.JobName}.mtrl.json`) : undefined,
      filters: { 'MTRL job file': ['mtrl.json'] },
    }));
  if (!target) return undefined;
  const uri = target.path.endsWith('.mtrl.json') ? target : target.with({ path: target.path.replace(/(\.json)?$/, '.mtrl.json') });
  const edit = new vscode.WorkspaceEdit();
  edit.createFile(uri, { overwrite: true, contents: new TextEncoder().encode(serializeJobFile(job)) });
  if (!(await vscode.workspace.applyEdit(edit))) {
    void vscode.window.showErrorMessage(`Could not write ${uri.fsPath}.`);
    return undefined;
  }
  await vscode.window.showTextDocument(uri, { preview: false });
  return uri;
}
