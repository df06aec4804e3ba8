/** The last smoke result of one runtime. */
export interface SmokeRecord {
  ok: boolean;
  at: string;
  summary: string;
}

/** The smoke test's last result per runtime ARN. */
export type SmokeResults = Record<string, SmokeRecord>;

/** "passed 5 min ago" style text for tree descriptions and pickers. */
export function describeRecord(record: SmokeRecord | undefined, now = Date.now()): string {
  if (!record) return 'not smoke-tested';
  const minutes = Math.round((now - Date.parse(record.at)) / 60_000);
  const ago =
    minutes < 1
      ? 'just now'
      : minutes < 60
        ? `${minutes} min ago`
        : minutes < 48 * 60
          ? `${Math.round(minutes / 60)} h ago`
          : `${Math.round(minutes / 1440)} d ago`;
  return `smoke ${record.ok ? 'passed' : 'failed'} ${ago}`;
}
