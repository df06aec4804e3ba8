// Runs fuzz cases on a worker thread, so the watchdog can terminate one that loops.
import { parentPort } from 'node:worker_threads';
import { Random } from '../../src/emulator/random';
import { targetNamed } from './targets';
import { BLOCKING_TARGET, type CaseReply, type CaseRequest } from './watchdog';

const port = parentPort;
if (!port) throw new Error('The fuzz worker runs as a worker thread.');

/** Words that mean a message was built from a missing or non-text value. */
const BROKEN_MESSAGE = /\bundefined\b|\bNaN\b|\[object Object\]/;

port.on('message', (request: CaseRequest) => {
  if (request.target === BLOCKING_TARGET) Atomics.wait(new Int32Array(new SharedArrayBuffer(4)), 0, 0);
  void Promise.resolve()
    .then(() => targetNamed(request.target).run(request.bytes, new Random(request.splitSeed)))
    .then(
      ({ outcome, mismatch }): CaseReply => {
        const broken = outcome.messages.find((m) => !m.trim() || BROKEN_MESSAGE.test(m));
        if (mismatch) return { kind: 'mismatch', detail: `${mismatch.how}\n  whole: ${mismatch.whole}\n  split: ${mismatch.split}` };
        if (broken !== undefined) return { kind: 'bad-message', detail: broken };
        return { kind: 'ok' };
      },
      (error: unknown): CaseReply => ({
        kind: 'exception',
        detail: error instanceof Error ? (error.stack ?? error.message) : String(error),
      }),
    )
    .then((reply) => port.postMessage(reply));
});
port.postMessage({ kind: 'ready' });
