import * as vscode from 'vscode';
import { runtimeIdFromArn } from '../../core/agentcore/runtimeArn';
import { documentFacts } from '../../core/jobs/document';
import type { JobFile } from '../../core/jobs/jobfile';
import { runtimesInUse } from '../../core/resources/references';
import { loadRunningJobs } from '../../services/resources/jobs';
import { jobRegions } from '../aws/settings';
import type { Services } from '../services';
import { agentsFromJson, agentsFromYaml, runtimeNameFromId } from '../../core/agentcore/projectFiles';
import { setting } from '../settings';

/** Running jobs are looked up this often while the workspace holds an agent. */
const POLL_MS = 60_000;

/**
 * While a job uses a runtime, a warning on that runtime's `main.py` (matched through `.bedrock_agentcore.yaml`,
 * `agentcore.json` or `mtrl.launch.runtimeName`): redeploying it would fail the job.
 */
export class RuntimeBanner implements vscode.Disposable {
  private readonly diagnostics = vscode.languages.createDiagnosticCollection('mtrl-runtime-in-use');
  /** Runtime name → jobs using it, from the last poll plus launches since. */
  private inUse = new Map<string, Set<string>>();
  private timer?: NodeJS.Timeout;
  private polling = false;

  constructor(private readonly services: Services) {}

  start(): void {
    void this.poll();
    this.timer = setInterval(() => void this.poll(), POLL_MS);
  }

  /** A job just launched: mark its runtime at once, without waiting for the next poll. */
  jobLaunched(job: JobFile): void {
    const arn = documentFacts(job.JobCategory, job.JobConfigDocument).runtimeArn;
    const id = arn ? runtimeIdFromArn(arn) : undefined;
    if (!id) return;
    const name = runtimeNameFromId(id);
    this.inUse.set(name, new Set([...(this.inUse.get(name) ?? []), job.JobName]));
    void this.render();
  }

  /** Workspace agent files: runtime name → its entry file. */
  private async declaredAgents(): Promise<Map<string, vscode.Uri[]>> {
    const byName = new Map<string, vscode.Uri[]>();
    const add = (name: string, uri: vscode.Uri) => byName.set(name, [...(byName.get(name) ?? []), uri]);
    for (const file of await vscode.workspace.findFiles('**/{.bedrock_agentcore.yaml,agentcore.json}', '**/node_modules/**', 50)) {
      const text = new TextDecoder().decode(await vscode.workspace.fs.readFile(file));
      const agents = file.path.endsWith('.json') ? agentsFromJson(text) : agentsFromYaml(text);
      for (const agent of agents) add(agent.runtimeName, vscode.Uri.joinPath(file, '..', agent.entrypoint));
    }
    for (const folder of vscode.workspace.workspaceFolders ?? []) {
      const name = setting('launch.runtimeName', folder);
      if (name) add(name, vscode.Uri.joinPath(folder.uri, 'main.py'));
    }
    return byName;
  }

  /** The running jobs of every listed region (the same service cleanup asks) and the runtimes they use. */
  private async poll(): Promise<void> {
    if (this.polling) return;
    this.polling = true;
    try {
      if ((await this.declaredAgents()).size === 0) return;
      const { jobs } = await loadRunningJobs(this.services.aws, jobRegions(), this.services.explain);
      const inUse = new Map<string, Set<string>>();
      for (const [arn, users] of runtimesInUse(jobs)) {
        const id = runtimeIdFromArn(arn);
        if (id) inUse.set(runtimeNameFromId(id), new Set(users.map((j) => j.name)));
      }
      this.inUse = inUse;
      await this.render();
    } catch (error) {
      // A failed poll keeps the last banner: better a stale warning than none while a job may still run.
      this.services.output.debug(`Runtime-in-use poll failed: ${error instanceof Error ? error.message : String(error)}`);
    } finally {
      this.polling = false;
    }
  }

  private async render(): Promise<void> {
    const agents = await this.declaredAgents();
    this.diagnostics.clear();
    for (const [name, jobs] of this.inUse) {
      for (const uri of agents.get(name) ?? []) {
        const list = [...jobs].join(', ');
        const message = `Runtime ${name} is in use by ${list}: redeploying it now stops in-flight rollouts and fails the job. Wait until ${jobs.size > 1 ? 'they finish' : 'it finishes'}.`;
        const diagnostic = new vscode.Diagnostic(new vscode.Range(0, 0, 0, 0), message, vscode.DiagnosticSeverity.Warning);
        diagnostic.source = 'MTRL';
        diagnostic.code = 'runtime-in-use';
        this.diagnostics.set(uri, [...(this.diagnostics.get(uri) ?? []), diagnostic]);
      }
    }
  }

  dispose(): void {
    if (this.timer) clearInterval(this.timer);
    this.diagnostics.dispose();
  }
}
