import * as vscode from 'vscode';
import { jobUriPath, parseJobUriPath, type JobRef } from '../../core/jobs/reference';
import type { JobsBackend } from '../../services/jobs/backend';

export const CONFIG_SCHEME = 'mtrl-job';

/** A job with its region: what a job's read-only documents are addressed by. */
export type JobAddress = Required<JobRef>;

/** `mtrl-job:/us-east-1/AgentRFT/wordle-grpo.json`: the address of a job's read-only documents. */
export function jobUri(scheme: string, job: JobAddress, extension: string): vscode.Uri {
  return vscode.Uri.from({ scheme, path: jobUriPath(job, extension) });
}

export function jobOfUri(uri: vscode.Uri): JobAddress | undefined {
  return parseJobUriPath(uri.path);
}

/** The JobConfigDocument of a job (ServiceOutput included), pretty-printed, read-only, fetched fresh on each open. */
export class JobConfigurationProvider implements vscode.TextDocumentContentProvider {
  private readonly changed = new vscode.EventEmitter<vscode.Uri>();
  readonly onDidChange = this.changed.event;

  constructor(
    private readonly backend: JobsBackend,
    private readonly explain: (error: unknown, action: string) => string,
  ) {}

  /** Fetches again the documents of a job that is open (after a refresh). */
  update(job: JobAddress): void {
    const uri = jobUri(CONFIG_SCHEME, job, 'json');
    if (vscode.workspace.textDocuments.some((d) => d.uri.toString() === uri.toString())) this.changed.fire(uri);
  }

  async provideTextDocumentContent(uri: vscode.Uri): Promise<string> {
    const job = jobOfUri(uri);
    if (!job) return `// Not a job address: ${uri.toString()}\n`;
    try {
      const details = await this.backend.describe(job.region, job.category, job.jobName);
      return details.document ? `${JSON.stringify(details.document, null, 2)}\n` : `// ${job.jobName} has no readable JobConfigDocument.\n`;
    } catch (error) {
      return `// ${this.explain(error, `Reading the configuration of ${job.jobName}`)}\n`;
    }
  }

  dispose(): void {
    this.changed.dispose();
  }
}
