import * as vscode from 'vscode';
import { resumePointOf, resumeTitle } from '../../core/jobs/checkpoint';
import { isJobRef, parseJobArgument, parseJobUriPath } from '../../core/jobs/reference';
import { describeJobIn } from '../../services/jobs/lookup';
import type { LaunchResult } from '../../services/launch/launch';
import { planResume } from '../../services/launch/resume';
import type { Services } from '../services';
import type { Launcher, LaunchOptions } from './launcher';

/** The read-only configuration documents of the Jobs view (features/jobs/documents.ts): where the lens shows. */
const JOB_DOCUMENT_SCHEME = 'mtrl-job';

/**
 * Resume from Step N: a new job from the stopped or failed job's last checkpoint, through the one launch (review, estimate
 * of the remaining steps, confirmation). `options.confirm: false` is for tests only.
 */
export async function resumeJob(
  services: Services,
  launcher: Launcher,
  arg: unknown,
  options: LaunchOptions = {},
): Promise<LaunchResult | undefined> {
  const ref = parseJobArgument(arg);
  if (!isJobRef(ref)) {
    void vscode.window.showInformationMessage('Run this from a stopped or failed training job in the MTRL Jobs view.');
    return undefined;
  }
  const region = ref.region ?? services.aws.current.region;
  let plan: Awaited<ReturnType<typeof planResume>>;
  try {
    plan = await planResume(services.aws, ref, region);
  } catch (error) {
    void vscode.window.showErrorMessage(services.explain(error, `Reading job ${ref.jobName}`, region));
    return undefined;
  }
  if ('problem' in plan) {
    void vscode.window.showInformationMessage(plan.problem);
    return undefined;
  }
  services.output.info(`${resumeTitle(plan.point)} of ${plan.from} as ${plan.job.JobName}: checkpoint ${plan.point.checkpointArn}`);
  const result = await launcher.launch(plan.job, options);
  return result.review && result.reason !== 'back' && result.reason !== 'cancelled' ? result : undefined;
}

/** "Resume from Step N" at the top of a stopped or failed training job's configuration document. */
export class ResumeLens implements vscode.CodeLensProvider {
  constructor(private readonly services: Services) {}

  async provideCodeLenses(doc: vscode.TextDocument, token: vscode.CancellationToken): Promise<vscode.CodeLens[]> {
    const job = parseJobUriPath(doc.uri.path);
    if (!job || job.category !== 'AgentRFT') return [];
    const abort = new AbortController();
    const cancel = token.onCancellationRequested(() => abort.abort());
    try {
      // The document holds the checkpoint but not the status: one DescribeJob says both.
      const described = await describeJobIn(this.services.aws, job, abort.signal);
      const found = resumePointOf(job.category, described.JobStatus ?? '', described.config?.ServiceOutput, !!described.config);
      if (!('point' in found)) return [];
      const top = new vscode.Range(0, 0, 0, 0);
      return [
        new vscode.CodeLens(top, { title: `$(debug-continue) ${resumeTitle(found.point)}`, command: 'mtrl.resumeJob', arguments: [job] }),
      ];
    } catch {
      return [];
    } finally {
      cancel.dispose();
    }
  }
}

export const RESUME_LENS_SELECTOR: vscode.DocumentSelector = { scheme: JOB_DOCUMENT_SCHEME };
