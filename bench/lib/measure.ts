import { spawn } from 'node:child_process';
import path from 'node:path';

export interface Ran {
  wallMs: number;
  cpuMs: number;
  peakMb: number;
  out: string;
}

/** Runs a Node script with the peak-memory and CPU probe (bench/lib/maxRss.cjs); fails on an exit code not in `ok`. */
export async function measure(root: string, args: string[], ok: readonly number[] = [0]): Promise<Ran> {
  const start = performance.now();
  const child = spawn(process.execPath, ['--require', path.join(root, 'bench/lib/maxRss.cjs'), ...args], {
    cwd: root,
    stdio: ['ignore', 'pipe', 'pipe'],
  });
  let out = '';
  let err = '';
  child.stdout.on('data', (chunk) => (out += chunk));
  child.stderr.on('data', (chunk) => (err += chunk));
  const code = await new Promise<number>((resolve) => child.on('close', (c) => resolve(c ?? -1)));
  const wallMs = performance.now() - start;
  const probe = /maxRSS (\d+) cpu (\d+)/.exec(err);
  if (!ok.includes(code) || !probe) throw new Error(`${args.join(' ')} exited ${code}: ${err.slice(-500)}`);
  return { wallMs, cpuMs: Number(probe[2]) / 1000, peakMb: Number(probe[1]) / 1024, out };
}
