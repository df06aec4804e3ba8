import * as vscode from 'vscode';
import type { SignalCheckShown } from '../../core/signal/reportView';
import type { KeptSignalCheck, SignalCheckKey, SignalChecks } from '../../services/signal/checks';
import { refreshSignalCheck, type SignalRefreshDeps } from '../../services/signal/launchCheck';
import type { SignalSource } from '../../shared/signal';
import type { LoadedSignal } from './sources';

/** The last part of an ARN, URI or path: what a person recognises in a list. */
const tail = (text: string) => text.replace(/\/+$/, '').split(/[/:]/).pop() || text;

/** A check's key in words: "train.jsonl · my_agent · reward 3f2a9c1b". */
export function keyLabel(key: SignalCheckKey): string {
  const reward = key.reward.replace(/^sha256:/, '').slice(0, 12);
  return `${tail(key.dataset)} · ${tail(key.runtime)}${reward ? ` · reward ${reward}` : ''}`;
}

export const keptSource = (key: SignalCheckKey): SignalSource => ({ kind: 'kept', key, label: keyLabel(key) });

/** A kept check as the view shows it, and its rollouts for the board: a cloud check's job, a local check's file or folder. */
export function keptSignal(check: KeptSignalCheck): LoadedSignal {
  const shown: SignalCheckShown = {
    title: keyLabel(check.key),
    status: check.status,
    at: check.at,
    report: check.report,
    error: check.error,
    tokensPerRollout: check.tokensPerRollout,
    projectedCost: check.projectedCost && {
      rollouts: check.projectedCost.rollouts,
      low: check.projectedCost.low,
      high: check.projectedCost.high,
    },
    checkCost: check.estimate && { low: check.estimate.low, high: check.estimate.high },
    hasRollouts: !!check.rollouts,
  };
  if (!check.rollouts) return { shown };
  if (check.route === 'local') return { shown, rollouts: vscode.Uri.file(check.rollouts) };
  const region = check.region ?? '';
  return { shown, rollouts: { jobName: check.jobName ?? check.rollouts, category: 'AgentRFTEvaluation', region } };
}

/** The latest kept check for a key, as the view shows it (a running cloud check asked again first); none kept is said in a sentence. */
export async function loadKept(
  checks: SignalChecks,
  key: SignalCheckKey,
  refresh: SignalRefreshDeps,
  signal: AbortSignal,
): Promise<LoadedSignal> {
  const check = await checks.latest(key);
  if (check) {
    try {
      return keptSignal(await refreshSignalCheck(check, refresh, signal));
    } catch (error) {
      // The job could not be asked now (offline, throttled): the kept check as it was, with why.
      const kept = keptSignal(check);
      const why = refresh.explain(error, `Asking evaluation job ${check.jobName ?? ''} how the check is doing`, check.region);
      return { ...kept, shown: { ...kept.shown, error: why } };
    }
  }
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
