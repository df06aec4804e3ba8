import path from 'node:path';
import { signalView, type SignalView } from '../core/signal/reportView';
import { signalChecksIn } from '../services/signal/checks';
import { UsageError, type CliIO } from './command';

/** The newest check kept in a signal store (`mtrl signal … --store DIR`), as the signal report words it. */
export async function keptSignal(store: string, io: CliIO): Promise<SignalView> {
  const [newest] = await signalChecksIn(path.resolve(store), (sentence) => io.err(`mtrl report: ${sentence}`)).list();
  if (!newest) throw new UsageError(`--signal ${store}: no signal check is kept there (mtrl signal --local … --store ${store} keeps one)`);
  return signalView({
    title: `Signal check of ${newest.key.dataset} with ${newest.key.runtime}${newest.jobName ? ` (evaluation job ${newest.jobName})` : ''}`,
    status: newest.status,
    at: newest.at,
    report: newest.report,
    error: newest.error,
    hasRollouts: false,
  });
}
