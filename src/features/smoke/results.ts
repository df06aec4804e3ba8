import type * as vscode from 'vscode';

/** The last smoke result of one runtime; the launch pre-flight reads it (contract: `mtrl.smoke.results`). */
export interface SmokeRecord {
  ok: boolean;
  at: string;
  summary: string;
}

export const SMOKE_RESULTS_KEY = 'mtrl.smoke.results';

/** Last smoke result per runtime ARN, kept in globalState so it survives windows and workspaces. */
export class SmokeResults {
  constructor(private readonly state: vscode.Memento) {}

  all(): Record<string, SmokeRecord> {
    return this.state.get<Record<string, SmokeRecord>>(SMOKE_RESULTS_KEY) ?? {};
  }

  get(runtimeArn: string): SmokeRecord | undefined {
    return this.all()[runtimeArn];
  }

  async remember(runtimeArn: string, record: SmokeRecord): Promise<void> {
    await this.state.update(SMOKE_RESULTS_KEY, { ...this.all(), [runtimeArn]: record });
  }
}

/** "passed 5 min ago" style text for tree descriptions and pickers. */
export function describeRecord(record: SmokeRecord | undefined, now = Date.now()): string {
  if (!record) return 'not smoke-tested';
  const minutes = Math.round((now - Date.parse(record.at)) / 60_000);
  const ago = minutes < 1 ? 'just now' : minutes < 60 ? `${minutes} min ago` : minutes < 48 * 60 ? `${Math.round(minutes / 60)} h ago` : `${Math.round(minutes / 1440)} d ago`;
  return `smoke ${record.ok ? 'passed' : 'failed'} ${ago}`;
}
