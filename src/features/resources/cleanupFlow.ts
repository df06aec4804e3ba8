import * as vscode from 'vscode';
import { kindWord } from '../../core/resources/references';
import {
  keyRange,
  objectsDeleted as objectsDeletedBy,
  runCleanup,
  stopWords,
  type CleanupResult,
  type CleanupTarget,
} from '../../services/resources/cleanup';
import { planCleanup, regionsLines } from '../../services/resources/cleanupPlan';
import { allItems, type Inventory } from '../../services/resources/inventory';

/** What the cleanup command returns: read by the host tests. */
interface CleanupOutcome {
  deleted: string[];
  remaining: Array<{ id: string; reason: string }>;
  cancelled: boolean;
  /** The regions whose jobs vouched for "unused". */
  regionsChecked: string[];
  /** S3 objects deleted, partly deleted prefixes included. */
  objectsDeleted: number;
}

/** Select → review (a checkbox list, in-use ones marked) → one confirmation → delete with progress and cancel → what remains and why. */
export async function cleanUp(
  inventory: Inventory,
  preselected: ReadonlySet<string>,
  target: CleanupTarget,
  output: vscode.LogOutputChannel,
): Promise<CleanupOutcome | undefined> {
  const candidates = allItems(inventory);
  if (!candidates.length) {
    void vscode.window.showInformationMessage('Nothing to clean up: no runtime, role, MLflow app or S3 prefix of your jobs was found.');
    return undefined;
  }
  const picked = await vscode.window.showQuickPick(
    candidates.map((item) => ({
      label: `${item.running.length ? '$(lock) ' : ''}${item.label}`,
      description: `${kindWord(item.ref.kind)}${item.running.length ? ` · in use by ${item.running.join(', ')}: will be refused` : ''}${item.untouched?.length ? ` · also holds ${item.untouched.join(', ')}, which no job used` : ''}`,
      detail: item.ref.id,
      picked: preselected.has(item.ref.id),
      item,
    })),
    {
      canPickMany: true,
      title: 'Clean Up Resources: review what to delete',
      placeHolder: `Check what to delete; running jobs of ${inventory.regionsChecked.join(', ')} keep what they use`,
      matchOnDetail: true,
      ignoreFocusOut: true,
    },
  );
  if (!picked?.length) return undefined;
  const plan = planCleanup(
    inventory,
    picked.map((p) => p.item.ref),
  );
  const refused = plan.refused.map((r) => `Refused ${kindWord(r.ref.kind)} ${r.label}: ${r.reason}.`);
  if (!plan.steps.length) {
    void vscode.window.showWarningMessage(`Nothing deleted. ${refused.join(' ')}`);
    return {
      deleted: [],
      remaining: plan.refused.map((r) => ({ id: r.ref.id, reason: r.reason })),
      cancelled: false,
      regionsChecked: plan.regionsChecked,
      objectsDeleted: 0,
    };
  }
  const detail = [
    ...plan.steps.map((s) => `• ${kindWord(s.item.ref.kind)} ${s.item.label}: ${s.action}`),
    ...plan.steps.filter((s) => s.warning).map((s) => `⚠ ${s.warning}`),
    ...refused,
    ...regionsLines(plan),
    'Each is checked again just before its delete.',
    'This cannot be undone.',
  ].join('\n');
  const confirm = `Delete ${plan.steps.length} resource${plan.steps.length === 1 ? '' : 's'}`;
  if ((await vscode.window.showWarningMessage(`${confirm}?`, { modal: true, detail }, confirm)) !== confirm) return undefined;

  const result = await vscode.window.withProgress(
    { location: vscode.ProgressLocation.Notification, title: 'Cleaning up', cancellable: true },
    (progress, token) => {
      const controller = new AbortController();
      token.onCancellationRequested(() => controller.abort());
      let done = 0;
      return runCleanup(
        plan,
        target,
        (p) => {
          progress.report({ message: p.message, increment: Math.max(0, p.fraction * 100 - done) });
          done = Math.max(done, p.fraction * 100);
          output.info(`Cleanup: ${p.message}`);
        },
        controller.signal,
      );
    },
  );
  const objectsDeleted = objectsDeletedBy(result);
  await report(result, objectsDeleted, output);
  return {
    deleted: result.deleted.map((i) => i.ref.id),
    remaining: result.remaining.map((r) => ({ id: r.ref.id, reason: r.reason })),
    cancelled: result.stopped === 'cancel',
    regionsChecked: plan.regionsChecked,
    objectsDeleted,
  };
}

async function report(result: CleanupResult, objects: number, output: vscode.LogOutputChannel): Promise<void> {
  for (const item of result.deleted)
    output.info(`Cleanup: deleted ${kindWord(item.ref.kind)} ${item.ref.id}${item.keys ? ` (${item.keys.length} objects)` : ''}`);
  for (const r of result.remaining)
    if (r.deletedKeys?.length) output.info(`Cleanup: deleted ${r.deletedKeys.length} objects of ${r.ref.id}${keyRange(r.deletedKeys)}`);
  const objectsWord = objects ? ` and ${objects} S3 object${objects === 1 ? '' : 's'}` : '';
  if (!result.remaining.length) {
    void vscode.window.showInformationMessage(
      `Deleted ${result.deleted.length} resource${result.deleted.length === 1 ? '' : 's'}${objectsWord}.`,
    );
    return;
  }
  const lines = result.remaining.map((r) => `${kindWord(r.ref.kind)} ${r.label}: ${r.reason}`);
  for (const line of lines) output.warn(`Cleanup: still there: ${line}`);
  const head = `${result.stopped ? `Cleanup ${stopWords(result.stopped)}` : 'Cleanup finished'}: ${result.deleted.length} deleted${objectsWord}, ${result.remaining.length} still there.`;
  const answer = await vscode.window.showWarningMessage(
    `${head} ${lines[0]}${lines.length > 1 ? ` (and ${lines.length - 1} more)` : ''}`,
    'Show what remains',
  );
  if (answer) output.show(true);
}
