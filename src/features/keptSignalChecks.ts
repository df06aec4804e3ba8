import path from 'node:path';
import { defaultSignalChecksDir, signalChecksIn, type SignalChecks } from '../services/signal/checks';
import { combinedSignalChecks } from '../services/signal/combinedChecks';
import type { Services } from './services';

/**
 * (Its own module: the launch review reaches it from activation, so it must not pull in the signal commands' code.)
 * The kept checks: kept in the extension's global storage, read from there and from the `mtrl signal` CLI's store (the
 * user's cache), so a check run in a terminal shows in the launch review too; the newer wins. A damaged file is logged.
 */
export function keptChecks(services: Services, cliStore?: string): SignalChecks {
  const skipped = (sentence: string) => services.output.warn(`Learning signal: ${sentence}`);
  let both: SignalChecks | undefined;
  // Made on first use: activation reads no storage path.
  const stores = () =>
    (both ??= combinedSignalChecks(
      signalChecksIn(path.join(services.context.globalStorageUri.fsPath, 'signal-checks'), skipped),
      signalChecksIn(cliStore ?? defaultSignalChecksDir(), skipped),
    ));
  return { latest: (key) => stores().latest(key), keep: (check) => stores().keep(check), list: () => stores().list() };
}
