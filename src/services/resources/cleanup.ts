import { inUseReason, kindWord, runningUsers, type ResourceRef } from '../../core/resources/references';
import type { CleanupPlan, CleanupStep } from './cleanupPlan';
import { unprovenReason } from './cleanupPlan';
import type { RegionJobs } from './jobs';

/** The AWS operations a cleanup runs, one per kind (`awsCleanupTarget` sends them; unit tests count them). */
export interface CleanupTarget {
  /** Asked afresh before every delete, in every region checked: a job may have started since the plan was made. */
  runningJobs(signal?: AbortSignal): Promise<RegionJobs>;
  deleteRuntime(arn: string, signal?: AbortSignal): Promise<void>;
  /** Detaches and deletes the role's policies first; calls `step` before each call. */
  deleteRole(arn: string, step: (what: string) => void, signal?: AbortSignal): Promise<void>;
  deleteMlflowApp(arn: string, signal?: AbortSignal): Promise<void>;
  /** RemoveTargets, then DeleteRule (the SDK's delete_notification_rule). */
  deleteNotificationRule(arn: string, signal?: AbortSignal): Promise<void>;
  /** The keys under a prefix URI, page by page (S3 lists them in key order). */
  listKeys(prefixUri: string, signal?: AbortSignal): AsyncIterable<string>;
  /** One DeleteObjects call (at most 1,000 keys); the keys S3 refused, with why. */
  deleteKeys(prefixUri: string, keys: string[], signal?: AbortSignal): Promise<Array<{ key: string; reason: string }>>;
}

export interface CleanupProgress {
  message: string;
  /** Done so far, 0–1, over the whole plan. */
  fraction: number;
}

/** A resource that is gone; for an S3 prefix, the keys deleted. */
export interface DeletedResource {
  ref: ResourceRef;
  label: string;
  keys?: string[];
}

/** What is still there and why: refused, failed, or not reached after a stop; for an S3 prefix, the keys that did go. */
export interface Remaining {
  ref: ResourceRef;
  label: string;
  reason: string;
  /** S3: the keys deleted before it stopped (in key order). */
  deletedKeys?: string[];
  /** S3: keys whose delete call was abandoned or failed without an answer: each may or may not be gone. */
  unknownKeys?: string[];
}

/** What stopped a cleanup between two calls: the command's deadline or the user's cancel (Ctrl-C, the notification's Cancel). */
export type StopCause = 'deadline' | 'cancel';

export interface CleanupResult {
  deleted: DeletedResource[];
  remaining: Remaining[];
  stopped?: StopCause;
}

/** Every S3 object the cleanup deleted, whole prefixes and partly deleted ones alike. */
export function objectsDeleted(result: CleanupResult): number {
  const whole = result.deleted.reduce((sum, d) => sum + (d.keys?.length ?? 0), 0);
  return result.remaining.reduce((sum, r) => sum + (r.deletedKeys?.length ?? 0), whole);
}

/** " (keys a … b, in key order)": which keys went, without printing thousands of them (batches go in the listing's key order). */
export function keyRange(keys: readonly string[] | undefined): string {
  if (!keys?.length) return '';
  return keys.length === 1 ? ` (key ${keys[0]})` : ` (keys ${keys[0]} … ${keys[keys.length - 1]}, in key order)`;
}

/** Keys per DeleteObjects call (S3's limit). */
const BATCH = 1000;
/** How long a delete call already sent may still answer after a stop: its answer makes the count exact. */
export const IN_FLIGHT_GRACE_MS = 10_000;

/** How a stop is said: "stopped at the deadline", "cancelled". */
export function stopWords(cause: StopCause): string {
  return cause === 'deadline' ? 'stopped at the deadline' : 'cancelled';
}

function causeOf(stop: AbortSignal): StopCause {
  return (stop.reason as Error | undefined)?.name === 'TimeoutError' ? 'deadline' : 'cancel';
}

/**
 * Deletes the plan's resources one by one, checking every region's running jobs just before each and each batch of keys.
 * `stop` (deadline or cancel) ends it between calls; a call already sent gets IN_FLIGHT_GRACE_MS to answer, unless `abandon` aborts it at once.
 */
export async function runCleanup(
  plan: CleanupPlan,
  target: CleanupTarget,
  onProgress: (p: CleanupProgress) => void,
  stop?: AbortSignal,
  abandon?: AbortSignal,
): Promise<CleanupResult> {
  const inFlight = inFlightSignal(stop, abandon);
  const deleted: DeletedResource[] = [];
  const remaining: Remaining[] = plan.refused.map((r) => ({ ...r }));
  const total = plan.steps.length || 1;
  try {
    for (const [index, step] of plan.steps.entries()) {
      const { ref, label } = step.item;
      const report = (message: string, within = 0) => onProgress({ message, fraction: (index + within) / total });
      let started = false;
      try {
        if (stop?.aborted) throw stop.reason;
        const blocked = await heldReason(ref, target, stop);
        if (blocked) {
          remaining.push({ ref, label, reason: blocked });
          continue;
        }
        started = true;
        report(`Deleting ${kindWord(ref.kind)} ${label}…`);
        if (ref.kind === 's3Prefix') {
          const outcome = await deletePrefix(step, target, report, stop, inFlight.signal);
          if (outcome.reason)
            remaining.push({ ref, label, reason: outcome.reason, deletedKeys: outcome.deleted, unknownKeys: outcome.unknown });
          else deleted.push({ ref, label, keys: outcome.deleted });
          continue;
        }
        if (ref.kind === 'runtime') await target.deleteRuntime(ref.id, inFlight.signal);
        else if (ref.kind === 'mlflowApp') await target.deleteMlflowApp(ref.id, inFlight.signal);
        else if (ref.kind === 'notificationRule') await target.deleteNotificationRule(ref.id, inFlight.signal);
        else await target.deleteRole(ref.id, (what) => report(`${label}: ${what}…`), inFlight.signal);
        deleted.push({ ref, label });
      } catch (error) {
        remaining.push({ ref, label, reason: failureReason(error, started, ref, stop) });
      }
    }
  } finally {
    inFlight.dispose();
  }
  onProgress({ message: stop?.aborted ? `Cleanup ${stopWords(causeOf(stop))}.` : 'Cleanup finished.', fraction: 1 });
  return { deleted, remaining, ...(stop?.aborted ? { stopped: causeOf(stop) } : {}) };
}

/** Why the resource must stay now: a region whose jobs cannot be read, or a running job that uses it. */
async function heldReason(ref: ResourceRef, target: CleanupTarget, stop?: AbortSignal): Promise<string | undefined> {
  const { jobs, unreadable } = await target.runningJobs(stop);
  const users = runningUsers(ref, jobs);
  return unprovenReason(ref, unreadable) ?? (users.length ? inUseReason(users) : undefined);
}

function failureReason(error: unknown, started: boolean, ref: ResourceRef, stop?: AbortSignal): string {
  if (!started && stop?.aborted) return `not deleted: the cleanup was ${stopWords(causeOf(stop))} first`;
  const message = (error as Error | undefined)?.message ?? String(error);
  if (!started) return `not deleted: checking for running jobs failed: ${message}`;
  const maybe = ref.kind === 'role' ? 'some of its policies may be detached or the role gone' : 'it may be gone';
  return stop?.aborted ? `abandoned while it was being deleted: ${maybe}` : `failed: ${message}`;
}

interface PrefixOutcome {
  /** Keys S3 confirmed deleted, in key order. */
  deleted: string[];
  /** Keys of a call that ended without an answer. */
  unknown?: string[];
  /** Why keys remain; undefined when every key is gone. */
  reason?: string;
}

/** Lists the keys and deletes them 1,000 at a time, checking the stop and the running users before every call; never throws once a key is deleted. */
async function deletePrefix(
  step: CleanupStep,
  target: CleanupTarget,
  report: (m: string, within: number) => void,
  stop: AbortSignal | undefined,
  inFlight: AbortSignal,
): Promise<PrefixOutcome> {
  const { ref, label } = step.item;
  const keys: string[] = [];
  try {
    for await (const key of target.listKeys(ref.id, stop)) keys.push(key);
  } catch (error) {
    const why = stop?.aborted ? `the cleanup was ${stopWords(causeOf(stop))}` : `listing its objects failed: ${(error as Error).message}`;
    return { deleted: [], reason: `not deleted: ${why} before any object was deleted` };
  }
  const deleted: string[] = [];
  const failures: Array<{ key: string; reason: string }> = [];
  const left = (why: string, unknown?: string[]) => ({
    deleted,
    ...(unknown ? { unknown } : {}),
    reason: `${why}: ${deleted.length} of ${keys.length} objects deleted${unknown ? `, ${unknown.length} may or may not be` : ''}, ${keys.length - deleted.length - (unknown?.length ?? 0)} left`,
  });
  for (let at = 0; at < keys.length; at += BATCH) {
    const batch = keys.slice(at, at + BATCH);
    try {
      if (stop?.aborted) return left(stopWords(causeOf(stop)));
      if (at > 0) {
        const blocked = await heldReason(ref, target, stop);
        if (blocked) return left(blocked);
      }
    } catch (error) {
      return left(stop?.aborted ? stopWords(causeOf(stop)) : `checking for running jobs failed: ${(error as Error).message}`);
    }
    report(`${label}: deleting objects ${at + 1}–${at + batch.length} of ${keys.length}…`, at / Math.max(keys.length, 1));
    try {
      const refused = await target.deleteKeys(ref.id, batch, inFlight);
      const refusedKeys = new Set(refused.map((f) => f.key));
      deleted.push(...batch.filter((k) => !refusedKeys.has(k)));
      failures.push(...refused);
    } catch (error) {
      return left(
        stop?.aborted
          ? `${stopWords(causeOf(stop))} while a delete call was unanswered`
          : `a delete call failed: ${(error as Error).message}`,
        batch,
      );
    }
  }
  if (!failures.length) return { deleted };
  const first = failures[0];
  return { deleted, reason: `${failures.length} of ${keys.length} objects could not be deleted (e.g. ${first.key}: ${first.reason})` };
}

/** The signal of a call already sent: aborted IN_FLIGHT_GRACE_MS after a stop, or at once when abandoned. */
function inFlightSignal(stop?: AbortSignal, abandon?: AbortSignal): { signal: AbortSignal; dispose(): void } {
  const controller = new AbortController();
  let timer: NodeJS.Timeout | undefined;
  const onStop = () => (timer = setTimeout(() => controller.abort(stop?.reason), IN_FLIGHT_GRACE_MS));
  const onAbandon = () => controller.abort(abandon?.reason);
  if (stop?.aborted) onStop();
  else stop?.addEventListener('abort', onStop, { once: true });
  if (abandon?.aborted) onAbandon();
  else abandon?.addEventListener('abort', onAbandon, { once: true });
  return {
    signal: controller.signal,
    dispose() {
      clearTimeout(timer);
      stop?.removeEventListener('abort', onStop);
      abandon?.removeEventListener('abort', onAbandon);
    },
  };
}
