import * as vscode from 'vscode';
import { signalReport } from '../../core/signal/report';
import type { SignalCheckShown } from '../../core/signal/reportView';
import { explainIfAws } from '../../services/explainAws';
import { describeJobIn } from '../../services/jobs/lookup';
import { readLocalRollouts } from '../../services/rollouts';
import { evaluationSignal } from '../../services/signal/evaluationSignal';
import type { SignalSource } from '../../shared/signal';
import type { Services } from '../services';

/** A report to show, and what `mtrl.openRollouts` takes to replay its rollouts (none when they cannot be read again). */
export interface LoadedSignal {
  shown: SignalCheckShown;
  rollouts?: vscode.Uri | { jobName: string; category: 'AgentRFTEvaluation'; region: string };
}

/** An error as the sentence the view shows: our own sentences as they are, the AWS services' through the explainer (as the board does). */
function sentence(services: Services, error: unknown, action: string, region?: string): string {
  const e = error as NodeJS.ErrnoException;
  if (e?.code === 'ENOENT') return `${action}: the file or folder no longer exists.`;
  return explainIfAws(services.explain, error, action, region) ?? `${action}: ${(error as Error).message}`;
}

/** Reads a file's, folder's or evaluation job's rollouts and reports their learning signal; a failure becomes the report's sentence. */
export async function loadSignal(services: Services, source: SignalSource, signal: AbortSignal): Promise<LoadedSignal> {
  const at = new Date().toISOString();
  if (source.kind === 'file') {
    const uri = vscode.Uri.parse(source.uri);
    try {
      const rollouts = await readLocalRollouts(uri.fsPath, signal);
      return { shown: { title: source.label, status: 'done', at, report: signalReport(rollouts), hasRollouts: true }, rollouts: uri };
    } catch (error) {
      const error_ = sentence(services, error, `Reading ${source.label}`);
      return { shown: { title: source.label, status: 'failed', at, error: error_, hasRollouts: false } };
    }
  }
  if (source.kind === 'job') {
    const job = { jobName: source.jobName, category: 'AgentRFTEvaluation' as const, region: source.region };
    try {
      const described = await describeJobIn(services.aws, job, signal);
      const read = await evaluationSignal(services.aws, job, described, signal, {
        tokensSource: job.jobName,
        onTraceLimit: (limit) =>
          services.output.warn(
            `Learning signal: read the newest ${limit.toLocaleString()} traces of ${source.jobName}; older ones were not read.`,
          ),
      });
      const shown: SignalCheckShown = {
        title: source.label,
        status: 'done',
        at,
        report: read.report,
        tokensPerRollout: read.tokens && { prefill: read.tokens.prefill, sample: read.tokens.sample },
        hasRollouts: true,
      };
      return { shown, rollouts: job };
    } catch (error) {
      const error_ = sentence(services, error, `Reading the rollouts of ${source.jobName}`, source.region);
      return { shown: { title: source.label, status: 'failed', at, error: error_, hasRollouts: true }, rollouts: job };
    }
  }
  throw new Error(`A kept check is read from the kept-results store, not from ${source.label}.`);
}
