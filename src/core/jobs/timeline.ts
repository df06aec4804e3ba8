/** The status-transition timeline of a job and the times the tree prints. */
export interface StatusTransition {
  Status?: string;
  StartTime?: Date;
  EndTime?: Date;
  StatusMessage?: string;
}

export interface TimelineEntry {
  status: string;
  start?: Date;
  end?: Date;
  /** Milliseconds; for the current (open) entry, measured until `now`. */
  durationMs?: number;
  message?: string;
  current: boolean;
}

export function timelineOf(transitions: StatusTransition[] | undefined, now: Date): TimelineEntry[] {
  return (transitions ?? []).map((t, i, all) => {
    const current = !t.EndTime && i === all.length - 1;
    const end = t.EndTime ?? (current ? undefined : all[i + 1]?.StartTime);
    const until = end ?? (current ? now : undefined);
    const durationMs = t.StartTime && until ? Math.max(0, until.getTime() - t.StartTime.getTime()) : undefined;
    return { status: t.Status ?? 'Unknown', start: t.StartTime, end, durationMs, message: t.StatusMessage, current };
  });
}

/** "12h 40m", "3m 05s", "45s". */
export function formatDuration(ms: number): string {
  const seconds = Math.round(ms / 1000);
  if (seconds < 60) return `${seconds}s`;
  const minutes = Math.floor(seconds / 60);
  if (minutes < 60) return `${minutes}m ${String(seconds % 60).padStart(2, '0')}s`;
  const hours = Math.floor(minutes / 60);
  if (hours < 48) return `${hours}h ${String(minutes % 60).padStart(2, '0')}m`;
  return `${Math.floor(hours / 24)}d ${hours % 24}h`;
}

/** "just now", "5m ago", "3h ago", "2d ago", or the date for anything older than a month. */
export function relativeTime(then: Date, now: Date): string {
  const seconds = Math.round((now.getTime() - then.getTime()) / 1000);
  if (seconds < 45) return 'just now';
  const minutes = Math.round(seconds / 60);
  if (minutes < 60) return `${minutes}m ago`;
  const hours = Math.round(minutes / 60);
  if (hours < 24) return `${hours}h ago`;
  const days = Math.round(hours / 24);
  if (days <= 30) return `${days}d ago`;
  return then.toISOString().slice(0, 10);
}
