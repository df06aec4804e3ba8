// One fuzz case at a time on a worker thread; past the budget the worker is terminated and the case recorded as a hang.
import path from 'node:path';
import { Worker } from 'node:worker_threads';

export interface CaseRequest {
  target: string;
  bytes: Uint8Array;
  /** Seeds the cut points of the chunked run. */
  splitSeed: number;
}

export type CaseReply =
  { kind: 'ok' } | { kind: 'exception' | 'mismatch' | 'bad-message'; detail: string } | { kind: 'hang'; detail: string };

/** A target name no real target has: its case blocks the worker until terminated, as a looping parser would (the watchdog's own test). */
export const BLOCKING_TARGET = 'blocks-forever';

/** Heap a case may use: a memory blow-up ends as an exception instead of taking the machine down. */
const HEAP_MB = 1536;

export class Watchdog {
  private worker?: Promise<Worker>;

  constructor(private readonly budgetMs: number) {}

  private start(): Promise<Worker> {
    const source = `require('tsx/cjs'); require(${JSON.stringify(path.join(__dirname, 'worker.ts'))});`;
    const worker = new Worker(source, { eval: true, resourceLimits: { maxOldGenerationSizeMb: HEAP_MB } });
    // Loading the targets' code is not a case's time: the clock starts once the worker says it is ready.
    return new Promise((resolve, reject) => {
      worker.once('message', () => resolve(worker));
      worker.once('error', reject);
    });
  }

  /** Runs one case; a worker that crashes or exceeds the budget is replaced for the next case. */
  async run(request: CaseRequest): Promise<CaseReply> {
    this.worker ??= this.start();
    const worker = await this.worker;
    return new Promise<CaseReply>((resolve) => {
      const done = (reply: CaseReply, restart: boolean) => {
        clearTimeout(timer);
        worker.removeAllListeners('message').removeAllListeners('error').removeAllListeners('exit');
        if (restart) {
          this.worker = undefined;
          void worker.terminate();
        }
        resolve(reply);
      };
      const timer = setTimeout(() => done({ kind: 'hang', detail: `no answer in ${this.budgetMs / 1000} s` }, true), this.budgetMs);
      worker.on('message', (reply: CaseReply) => done(reply, false));
      worker.on('error', (error) => done({ kind: 'exception', detail: error.stack ?? error.message }, true));
      worker.on('exit', (code) => done({ kind: 'exception', detail: `the worker exited with code ${code}` }, true));
      worker.postMessage(request);
    });
  }

  async close(): Promise<void> {
    const worker = await this.worker?.catch(() => undefined);
    this.worker = undefined;
    await worker?.terminate();
  }
}
