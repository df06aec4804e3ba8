import { signalCheckId, type KeptSignalCheck, type SignalChecks } from './checks';

const newer = (a?: KeptSignalCheck, b?: KeptSignalCheck) => (!a || (b && b.at > a.at) ? b : a);

/**
 * Two stores read as one: checks are kept in `own` (the extension's), read from both (the `mtrl signal` command
 * line keeps its own), and per key the newer check wins.
 */
export function combinedSignalChecks(own: SignalChecks, other: SignalChecks): SignalChecks {
  return {
    latest: async (key) => newer(await own.latest(key), await other.latest(key)),
    keep: (check) => own.keep(check),
    async list() {
      const byKey = new Map<string, KeptSignalCheck>();
      for (const check of [...(await own.list()), ...(await other.list())]) {
        const id = signalCheckId(check.key);
        byKey.set(id, newer(byKey.get(id), check)!);
      }
      return [...byKey.values()].sort((a, b) => b.at.localeCompare(a.at));
    },
  };
}
