import { createHash, randomBytes } from 'node:crypto';
import { mkdir, readdir, readFile, rename, rm, writeFile } from 'node:fs/promises';
import { homedir } from 'node:os';
import path from 'node:path';
import type { KeptSignalCheck, SignalCheckKey, SignalChecks } from '../../core/signal/checks';
import { keptCheckProblem } from '../../core/signal/keptCheckShape';
import { outsideText } from '../../core/text/display';

export type { KeptSignalCheck, SignalCheckKey, SignalChecks } from '../../core/signal/checks';

/** A short stable file name for a key: the same dataset, runtime and reward always land in the same file. */
export function signalCheckId(key: SignalCheckKey): string {
  return createHash('sha256')
    .update(JSON.stringify([key.dataset, key.runtime, key.reward]))
    .digest('hex')
    .slice(0, 32);
}

/** The sha256 of a local reward file's content: its version for a signal check's key. */
export function rewardVersionOf(content: string | Buffer): string {
  return `sha256:${createHash('sha256').update(content).digest('hex')}`;
}

/** Where checks are kept unless told: the user's cache directory, as each platform names it. */
export function defaultSignalChecksDir(env: NodeJS.ProcessEnv = process.env, platform = process.platform): string {
  const home = env.HOME || env.USERPROFILE || homedir();
  const cache =
    platform === 'win32'
      ? env.LOCALAPPDATA || path.join(home, 'AppData', 'Local')
      : platform === 'darwin'
        ? path.join(home, 'Library', 'Caches')
        : env.XDG_CACHE_HOME || path.join(home, '.cache');
  return path.join(cache, 'mtrl-workbench', 'signal-checks');
}

/**
 * The kept checks in `dir`, one JSON file per key. A file that cannot be read as a check is skipped,
 * and `onSkipped` hears why in a sentence: one damaged file must not hide the others.
 */
export function signalChecksIn(dir: string, onSkipped: (sentence: string) => void = () => undefined): SignalChecks {
  const fileOf = (key: SignalCheckKey) => path.join(dir, `${signalCheckId(key)}.json`);

  async function read(file: string): Promise<KeptSignalCheck | undefined> {
    let text: string;
    try {
      text = await readFile(file, 'utf8');
    } catch (error) {
      if ((error as NodeJS.ErrnoException).code !== 'ENOENT') onSkipped(`Skipped ${outsideText(file)}: ${(error as Error).message}.`);
      return undefined;
    }
    try {
      const value: unknown = JSON.parse(text);
      const problem = keptCheckProblem(value);
      if (!problem) return value as KeptSignalCheck;
      onSkipped(`Skipped ${outsideText(file)}: it is not a kept signal check: ${problem}.`);
    } catch {
      onSkipped(`Skipped ${outsideText(file)}: it is not JSON (damaged; delete it and run the check again).`);
    }
    return undefined;
  }

  return {
    async latest(key) {
      const check = await read(fileOf(key));
      return check && signalCheckId(check.key) === signalCheckId(key) ? check : undefined;
    },
    async keep(check) {
      await mkdir(dir, { recursive: true });
      const file = fileOf(check.key);
      // Written aside then renamed: a reader never sees half a file, and two writers never interleave.
      const temp = `${file}.${process.pid}.${randomBytes(4).toString('hex')}.tmp`;
      try {
        await writeFile(temp, JSON.stringify(check, null, 1));
        await rename(temp, file);
      } catch (error) {
        await rm(temp, { force: true });
        throw error;
      }
    },
    async list() {
      let names: string[];
      try {
        names = await readdir(dir);
      } catch (error) {
        if ((error as NodeJS.ErrnoException).code === 'ENOENT') return [];
        onSkipped(`Cannot read the kept signal checks in ${dir}: ${(error as Error).message}.`);
        return [];
      }
      const checks = await Promise.all(names.filter((n) => n.endsWith('.json')).map((n) => read(path.join(dir, n))));
      return checks.filter((c): c is KeptSignalCheck => !!c).sort((a, b) => b.at.localeCompare(a.at));
    },
  };
}
