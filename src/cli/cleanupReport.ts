import { distinctTargets, kindWord, type ResourceRef } from '../core/resources/references';
import { regionsLines, type CleanupPlan, type RegionsScope } from '../services/resources/cleanupPlan';
import { keyRange, objectsDeleted, stopWords, type CleanupResult, type StopCause } from '../services/resources/cleanup';

/** An S3 prefix by its whole URI (a sub-folder's label is relative to its parent), anything else by its label. */
function nameOf(ref: ResourceRef, label: string): string {
  return `${kindWord(ref.kind)} ${ref.kind === 's3Prefix' ? ref.id : label}`;
}

export function planText(plan: CleanupPlan): string {
  return [
    ...regionsLines(plan),
    ...plan.steps.map(
      (s) => `would delete ${nameOf(s.item.ref, s.item.label)}: ${s.action}${s.warning ? `\n  warning: ${s.warning}` : ''}`,
    ),
    ...plan.refused.map((r) => `refused ${nameOf(r.ref, r.label)}: ${r.reason}`),
  ].join('\n');
}

export function planJson(plan: CleanupPlan) {
  return {
    regionsChecked: plan.regionsChecked,
    regionsNotChecked: plan.regionsNotChecked,
    steps: plan.steps.map((s) => ({ ...s.item.ref, label: s.item.label, action: s.action, warning: s.warning })),
    refused: plan.refused,
  };
}

export function resultText(result: CleanupResult, scope: RegionsScope): string {
  return [
    ...regionsLines(scope),
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

export function resultJson(result: CleanupResult, scope: RegionsScope) {
  return {
    regionsChecked: scope.regionsChecked,
    regionsNotChecked: scope.regionsNotChecked,
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
