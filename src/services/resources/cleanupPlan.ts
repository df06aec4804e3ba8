import {
  distinctTargets,
  inUseReason,
  isBucketRoot,
  kindWord,
  regionOfResource,
  runningUsers,
  type ResourceRef,
} from '../../core/resources/references';
import { allItems, type Inventory, type InventoryItem } from './inventory';
import type { UnreadableRegion } from './jobs';

/** One resource the cleanup will delete, with what that means in words. */
export interface CleanupStep {
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
  /** The regions whose jobs were checked for users. */
  regionsChecked: string[];
  /** The regions whose jobs were not, and why. */
  regionsNotChecked: UnreadableRegion[];
}

/** Which regions' jobs vouched for "unused", and which did not. */
export interface RegionsScope {
  regionsChecked: readonly string[];
  regionsNotChecked: readonly UnreadableRegion[];
}

/**
 * "Checked the jobs of us-east-1 (…)." and a line per region not checked, with why: roles and S3 are account-wide, so
 * the user sees which regions vouched for "unused" and which did not.
 */
export function regionsLines(scope: RegionsScope): string[] {
  const { regionsChecked, regionsNotChecked } = scope;
  const notChecked = regionsNotChecked.map((r) => `Not checked: the jobs of ${r.region}: ${r.reason.replace(/\.$/, '')}.`);
  if (!regionsChecked.length && !notChecked.length) return ['No region was checked: the cleanup stopped before.'];
  const which = notChecked.length ? 'every MTRL region and yours, but those below' : 'every MTRL region and yours';
  return [`Checked the jobs of ${regionsChecked.join(', ') || 'no region'} (${which}).`, ...notChecked];
}

/** What was asked for (each once), checked against the inventory: running users or an unreadable region refuse a resource, one no listed job used is never offered. */
export function planCleanup(inventory: Inventory, wanted: readonly ResourceRef[]): CleanupPlan {
  const items = allItems(inventory);
  const steps: CleanupStep[] = [];
  const refused: Refusal[] = [];
  for (const ref of distinctTargets(wanted)) {
    const item = items.find((i) => i.ref.kind === ref.kind && i.ref.id === ref.id);
    const users = runningUsers(ref, inventory.jobs);
    // A running user is the most useful answer, even for a folder that is not offered (a running job's empty output folder).
    const reason =
      ref.kind === 's3Prefix' && isBucketRoot(ref.id)
        ? 'a whole bucket is never cleaned up: name a folder a job read or wrote (see `mtrl resources`)'
        : users.length
          ? inUseReason(users)
          : !item
            ? notOfferedReason(ref, inventory.regionsChecked)
            : unprovenReason(ref, inventory.unreadableRegions);
    if (reason) refused.push({ ref, label: item?.label ?? ref.id, reason });
    else if (item) steps.push({ item, ...describeStep(item) });
  }
  return { steps, refused, regionsChecked: inventory.regionsChecked, regionsNotChecked: inventory.regionsNotChecked };
}

/** Why a resource cannot be proven unused: the jobs of its region (any region, for a role or S3 prefix) could not be read. */
export function unprovenReason(ref: ResourceRef, unreadable: readonly UnreadableRegion[]): string | undefined {
  const region = regionOfResource(ref);
  const blocking = unreadable.filter((u) => region === undefined || u.region === region);
  if (!blocking.length) return undefined;
  const regions = blocking.map((u) => u.region).join(', ');
  const why =
    region === undefined
      ? '; roles and S3 prefixes are account-wide, so the running jobs of every region must be known (take a region out of scope by name with --exclude-regions or mtrl.cleanup.excludeRegions)'
      : '';
  return `not proven unused: the jobs of ${regions} could not be read (${blocking[0].reason.replace(/\.$/, '')})${why}`;
}

function notOfferedReason(ref: ResourceRef, regions: readonly string[]): string {
  if (ref.kind !== 's3Prefix') return `no such ${kindWord(ref.kind)} among the resources the jobs of ${regions.join(', ')} used`;
  return `this folder was never used by a job of ${regions.join(', ')}: only folders a listed job read or wrote are cleaned up (see \`mtrl resources\`)`;
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
    case 'notificationRule':
      return {
        action: 'remove its targets, then delete the EventBridge rule',
        warning: `Rule ${item.label} is shared by every launch with the same topic, events and prefix: later jobs with those settings make it again.`,
      };
    case 's3Prefix': {
      const objects = item.size?.objects ?? 0;
      const calls = Math.max(1, Math.ceil(objects / 1000));
      const untouched = item.untouched ?? [];
      return {
        action: `delete ${objects} object${objects === 1 ? '' : 's'} (${formatBytes(item.size?.bytes ?? 0)}) in ${calls} call${calls === 1 ? '' : 's'} of up to 1,000 keys`,
        ...(untouched.length
          ? { warning: `${item.label} also holds ${untouched.join(', ')}, which no listed job read or wrote: they go with it.` }
          : {}),
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
