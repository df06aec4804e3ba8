import * as vscode from 'vscode';
import type { JobCategory } from '../../core/jobs/status';
import type { JobsBackend } from './backend';

export const CONFIG_SCHEME = 'mtrl-job';

export interface JobAddress {
  region: string;
  category: JobCategory;
  jobName: string;
}

/** `mtrl-job:/us-east-1/AgentRFT/wordle-grpo.json`: the address of a job's read-only documents. */
export function jobUri(scheme: string, job: JobAddress, extension: string): vscode.Uri {
  return vscode.Uri.from({ scheme, path: `/${job.region}/${job.category}/${job.jobName}.${extension}` });
}

export function jobOfUri(uri: vscode.Uri): JobAddress | undefined {
  const match = /^\/([^/]+)\/(AgentRFT|AgentRFTEvaluation)\/(.+)\.[a-z]+$/.exec(uri.path);
  return match ? { region: match[1], category: match[2] as JobCategory, jobName: match[3] } : undefined;
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
