import { distinctTargets, kindWord, type ResourceRef } from '../core/resources/references';
import type { CleanupPlan } from '../services/resources/cleanupPlan';
import { keyRange, objectsDeleted, stopWords, type CleanupResult, type StopCause } from '../services/resources/cleanup';

/** "Checked the jobs of us-east-1, us-west-2 (…).": roles and S3 are account-wide, so the user sees which regions vouched for "unused". */
export function regionsLine(regions: readonly string[]): string {
  if (!regions.length) return 'No region was checked: the cleanup stopped before.';
  return `Checked the jobs of ${regions.join(', ')} (every MTRL region and --region).`;
}

/** An S3 prefix by its whole URI (a sub-folder's label is relative to its parent), anything else by its label. */
function nameOf(ref: ResourceRef, label: string): string {
  return `${kindWord(ref.kind)} ${ref.kind === 's3Prefix' ? ref.id : label}`;
}

export function planText(plan: CleanupPlan): string {
  return [
    regionsLine(plan.regionsChecked),
    ...plan.steps.map(
      (s) => `would delete ${nameOf(s.item.ref, s.item.label)}: ${s.action}${s.warning ? `\n  warning: ${s.warning}` : ''}`,
    ),
    ...plan.refused.map((r) => `refused ${nameOf(r.ref, r.label)}: ${r.reason}`),
  ].join('\n');
}

export function planJson(plan: CleanupPlan) {
  return {
    regionsChecked: plan.regionsChecked,
    steps: plan.steps.map((s) => ({ ...s.item.ref, label: s.item.label, action: s.action, warning: s.warning })),
    refused: plan.refused,
  };
}

export function resultText(result: CleanupResult, regions: readonly string[]): string {
  return [
    regionsLine(regions),
    ...result.deleted.map(
      (d) => `deleted ${nameOf(d.ref, d.label)}${d.keys ? `: ${d.keys.length} object${d.keys.length === 1 ? '' : 's'}` : ''}`,
    ),
    ...(result.remaining.length ? ['Still there:'] : []),
    ...result.remaining.map((r) => `  ${nameOf(r.ref, r.label)}: ${r.reason}${keyRange(r.deletedKeys)}`),
    summaryLine(result),
  ].join('\n');
}

/** The one line a user (or a log) needs: how many resources and objects went, and whether it stopped early. */
export function summaryLine(result: CleanupResult): string {
  const head = result.stopped ? `${stopWords(result.stopped)[0].toUpperCase()}${stopWords(result.stopped).slice(1)}: ` : '';
  const resources = result.deleted.length;
  return `${head}deleted ${resources} resource${resources === 1 ? '' : 's'} and ${objectsDeleted(result)} S3 object${objectsDeleted(result) === 1 ? '' : 's'} in all.`;
}

export function resultJson(result: CleanupResult, regions: readonly string[]) {
  return {
    regionsChecked: regions,
    stopped: result.stopped,
    objectsDeleted: objectsDeleted(result),
    deleted: result.deleted.map((d) => ({ ...d.ref, label: d.label, ...(d.keys ? { objects: d.keys.length, keys: d.keys } : {}) })),
    remaining: result.remaining.map((r) => ({
      ...r.ref,
      label: r.label,
      reason: r.reason,
      ...(r.deletedKeys ? { objectsDeleted: r.deletedKeys.length, keysDeleted: r.deletedKeys } : {}),
      ...(r.unknownKeys ? { keysUnknown: r.unknownKeys } : {}),
    })),
  };
}

/** A cleanup stopped before its plan was made: every target is still there. */
export function stoppedBeforeStart(refs: readonly ResourceRef[], cause: StopCause): CleanupResult {
  const reason = `not deleted: the cleanup was ${stopWords(cause)} before it deleted anything`;
  return { deleted: [], remaining: distinctTargets(refs).map((ref) => ({ ref, label: ref.id, reason })), stopped: cause };
}
