import type { JobDetails } from '../../core/jobs/job';
import { inUseReason, kindWord, runningUsers, type ResourceRef } from '../../core/resources/references';
import { allItems, type Inventory, type InventoryItem } from './inventory';

/** One resource the cleanup will delete, with what that means in words. */
interface CleanupStep {
  item: InventoryItem;
  /** "delete 3 objects (8.0 KB) in 1 call", "detach its policies, then delete the role". */
  action: string;
  /** Said before the one confirmation, e.g. an MLflow app's experiment history goes with it. */
  warning?: string;
}

interface Refusal {
  ref: ResourceRef;
  label: string;
  reason: string;
}

export interface CleanupPlan {
  steps: CleanupStep[];
  refused: Refusal[];
}

/** What was asked for, checked against the inventory: running users refuse a resource, unknown ones are named as such. */
export function planCleanup(inventory: Inventory, wanted: readonly ResourceRef[]): CleanupPlan {
  const items = allItems(inventory);
  const steps: CleanupStep[] = [];
  const refused: Refusal[] = [];
  for (const ref of wanted) {
    const item = items.find((i) => i.ref.kind === ref.kind && i.ref.id === ref.id);
    if (!item) {
      refused.push({ ref, label: ref.id, reason: `no such ${kindWord(ref.kind)} among the resources the jobs of these regions used` });
      continue;
    }
    const users = runningUsers(ref, inventory.jobs);
    if (users.length) refused.push({ ref, label: item.label, reason: inUseReason(users) });
    else steps.push({ item, ...describeStep(item) });
  }
  return { steps, refused };
}

function describeStep(item: InventoryItem): { action: string; warning?: string } {
  switch (item.ref.kind) {
    case 'runtime':
      return { action: 'delete the agent runtime (its endpoint and versions go with it)' };
    case 'role':
      return { action: 'detach its managed policies, delete its inline policies, then delete the role' };
    case 'mlflowApp':
      return {
        action: 'delete the MLflow app',
        warning: `Deleting MLflow app ${item.label} deletes its experiment history: every run, metric and trace of the jobs that logged to it.`,
      };
    case 's3Prefix': {
      const objects = item.size?.objects ?? 0;
      const calls = Math.max(1, Math.ceil(objects / 1000));
      return {
        action: `delete ${objects} object${objects === 1 ? '' : 's'} (${formatBytes(item.size?.bytes ?? 0)}) in ${calls} call${calls === 1 ? '' : 's'} of up to 1,000 keys`,
      };
    }
  }
}

/** "8.0 KB", "1.2 GB": sizes at a glance. */
export function formatBytes(bytes: number): string {
  const units = ['B', 'KB', 'MB', 'GB', 'TB'];
  let value = bytes;
  let unit = 0;
  while (value >= 1024 && unit < units.length - 1) {
    value /= 1024;
    unit++;
  }
  return unit === 0 ? `${bytes} B` : `${value.toFixed(1)} ${units[unit]}`;
}

/** The AWS operations a cleanup runs, one per kind (`awsCleanupTarget` sends them; unit tests count them). */
export interface CleanupTarget {
  /** Asked afresh before every delete: a job may have started since the plan was made. */
  runningJobs(signal?: AbortSignal): Promise<JobDetails[]>;
  deleteRuntime(arn: string, signal?: AbortSignal): Promise<void>;
  /** Detaches and deletes the role's policies first; calls `step` before each call. */
  deleteRole(arn: string, step: (what: string) => void, signal?: AbortSignal): Promise<void>;
  deleteMlflowApp(arn: string, signal?: AbortSignal): Promise<void>;
  /** The keys under a prefix URI, page by page. */
  listKeys(prefixUri: string, signal?: AbortSignal): AsyncIterable<string>;
  /** One DeleteObjects call (at most 1,000 keys); the keys S3 refused, with why. */
  deleteKeys(prefixUri: string, keys: string[], signal?: AbortSignal): Promise<Array<{ key: string; reason: string }>>;
}

export interface CleanupProgress {
  message: string;
  /** Done so far, 0–1, over the whole plan. */
  fraction: number;
}

interface Remaining {
  ref: ResourceRef;
  label: string;
  reason: string;
}

export interface CleanupResult {
  deleted: InventoryItem[];
  /** What is still there and why: refused, failed, or not reached after a cancel. */
  remaining: Remaining[];
  cancelled: boolean;
}

const BATCH = 1000;

/** Deletes the plan's resources one by one, checking for running users just before each; a failure moves on to the next. */
export async function runCleanup(
  plan: CleanupPlan,
  target: CleanupTarget,
  onProgress: (p: CleanupProgress) => void,
  signal?: AbortSignal,
): Promise<CleanupResult> {
  const deleted: InventoryItem[] = [];
  const remaining: Remaining[] = plan.refused.map((r) => ({ ...r }));
  const total = plan.steps.length || 1;
  for (const [index, step] of plan.steps.entries()) {
    const { ref, label } = step.item;
    if (signal?.aborted) {
      remaining.push({ ref, label, reason: 'not deleted: the cleanup was cancelled first' });
      continue;
    }
    const report = (message: string, within = 0) => onProgress({ message, fraction: (index + within) / total });
    try {
      const users = runningUsers(ref, await target.runningJobs(signal));
      if (users.length) {
        remaining.push({ ref, label, reason: inUseReason(users) });
        continue;
      }
      report(`Deleting ${kindWord(ref.kind)} ${label}…`);
      if (ref.kind === 'runtime') await target.deleteRuntime(ref.id, signal);
      else if (ref.kind === 'mlflowApp') await target.deleteMlflowApp(ref.id, signal);
      else if (ref.kind === 'role') await target.deleteRole(ref.id, (what) => report(`${label}: ${what}…`), signal);
      else {
        const failures = await deletePrefix(step, target, report, signal);
        if (failures) {
          remaining.push({ ref, label, reason: failures });
          continue;
        }
      }
      deleted.push(step.item);
    } catch (error) {
      remaining.push({
        ref,
        label,
        reason: signal?.aborted ? 'cancelled while it was being deleted: part of it may be gone' : `failed: ${(error as Error).message}`,
      });
    }
  }
  onProgress({ message: 'Cleanup finished.', fraction: 1 });
  return { deleted, remaining, cancelled: Boolean(signal?.aborted) };
}

/** Lists the keys and deletes them 1,000 at a time, re-checking running users before every call; a sentence when some keys remain. */
async function deletePrefix(
  step: CleanupStep,
  target: CleanupTarget,
  report: (m: string, within: number) => void,
  signal?: AbortSignal,
): Promise<string | undefined> {
  const keys: string[] = [];
  for await (const key of target.listKeys(step.item.ref.id, signal)) keys.push(key);
  const failures: Array<{ key: string; reason: string }> = [];
  for (let at = 0; at < keys.length; at += BATCH) {
    signal?.throwIfAborted();
    if (at > 0) {
      const users = runningUsers(step.item.ref, await target.runningJobs(signal));
      if (users.length) return `${keys.length - at} of ${keys.length} objects left: ${inUseReason(users)}`;
    }
    report(
      `${step.item.label}: deleting objects ${at + 1}–${Math.min(at + BATCH, keys.length)} of ${keys.length}…`,
      at / Math.max(keys.length, 1),
    );
    failures.push(...(await target.deleteKeys(step.item.ref.id, keys.slice(at, at + BATCH), signal)));
  }
  if (!failures.length) return undefined;
  const first = failures[0];
  return `${failures.length} of ${keys.length} objects could not be deleted (e.g. ${first.key}: ${first.reason})`;
}
