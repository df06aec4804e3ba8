import path from 'node:path';
import * as vscode from 'vscode';
import type { SignalReport } from '../../core/signal/report';
import type { SignalCheckShown } from '../../core/signal/reportView';
import { signalChecksIn, type KeptSignalCheck, type SignalCheckKey, type SignalChecks } from '../../services/signal/checks';
import type { SignalSource } from '../../shared/signal';
import type { Services } from '../services';
import type { LoadedSignal } from './sources';

/** The kept checks of this installation, in the extension's global storage; a damaged file is skipped with a warning in the log. */
export function keptChecks(services: Services): SignalChecks {
  const dir = path.join(services.context.globalStorageUri.fsPath, 'signal-checks');
  return signalChecksIn(dir, (sentence) => services.output.warn(`Learning signal: ${sentence}`));
}

/** The last part of an ARN, URI or path: what a person recognises in a list. */
const tail = (text: string) => text.replace(/\/+$/, '').split(/[/:]/).pop() || text;

/** A check's key in words: "train.jsonl · my_agent · reward 3f2a9c1b". */
export function keyLabel(key: SignalCheckKey): string {
  const reward = key.reward.replace(/^sha256:/, '').slice(0, 12);
  return `${tail(key.dataset)} · ${tail(key.runtime)}${reward ? ` · reward ${reward}` : ''}`;
}

export const keptSource = (key: SignalCheckKey): SignalSource => ({ kind: 'kept', key, label: keyLabel(key) });

/** What a local check adds to its report's JSON (`mtrl signal --local --json`): read when present. */
interface MeasuredReport extends SignalReport {
  tokensPerRollout?: { prefill: number; sample: number };
  projectedCost?: { rollouts: number; low: number; high: number };
}

/** A kept check as the view shows it, and its rollouts for the board: a cloud check's job, a local check's file or folder. */
export function keptSignal(check: KeptSignalCheck): LoadedSignal {
  const report = check.report as MeasuredReport | undefined;
  const shown: SignalCheckShown = {
    title: keyLabel(check.key),
    status: check.status,
    at: check.at,
    report,
    error: check.error,
    tokensPerRollout: report?.tokensPerRollout,
    projectedCost: report?.projectedCost,
    hasRollouts: !!check.rollouts,
  };
  if (!check.rollouts) return { shown };
  if (check.route === 'local') return { shown, rollouts: vscode.Uri.file(check.rollouts) };
  const region = check.region ?? '';
  return { shown, rollouts: { jobName: check.jobName ?? check.rollouts, category: 'AgentRFTEvaluation', region } };
}

/** The latest kept check for a key, as the view shows it; none kept is said in a sentence. */
export async function loadKept(checks: SignalChecks, key: SignalCheckKey): Promise<LoadedSignal> {
  const check = await checks.latest(key);
  if (check) return keptSignal(check);
  const error = `No signal check is kept for ${keyLabel(key)}: run MTRL: Check Learning Signal… to make one.`;
  return { shown: { title: keyLabel(key), status: 'failed', error, hasRollouts: false } };
}

/** Lets the user pick one of the kept checks, newest first; undefined when there are none (said) or the pick is dismissed. */
export async function pickKeptCheck(checks: SignalChecks): Promise<KeptSignalCheck | undefined> {
  const all = await checks.list();
  if (!all.length) {
    void vscode.window.showInformationMessage('No learning-signal check is kept yet: run MTRL: Check Learning Signal… first.');
    return undefined;
  }
  const share = (c: KeptSignalCheck) =>
    c.report?.zeroAdvantage.share === null || c.report?.zeroAdvantage.share === undefined
      ? c.status
      : `${Math.round(c.report.zeroAdvantage.share * 100)} % zero advantage`;
  const picked = await vscode.window.showQuickPick(
    all.map((check) => ({
      label: keyLabel(check.key),
      description: `${share(check)} · ${new Date(check.at).toLocaleString()}`,
      detail: `${check.route === 'cloud' ? `Evaluation job ${check.jobName ?? ''}` : 'Played locally'} · ${check.rows} rows × ${check.groupSize} rollouts`,
      check,
    })),
    {
      title: 'MTRL: Show Learning Signal Report',
      placeHolder: 'A kept signal check (dataset · runtime · reward version)',
      matchOnDetail: true,
    },
  );
  return picked?.check;
}
