// The Parquet decoder's thread: bytes are asked of the parent (which owns the file or the S3 client), row batches sent back one at a time.
import { parentPort, workerData } from 'node:worker_threads';
import { decodeParquet, type ParquetBytes } from '../../core/dataset/parquet';
import type { FromParent, ToParent } from './messages';

const port = parentPort;
if (!port) throw new Error('The Parquet decoder runs as a worker thread.');

const reads = new Map<number, (buffer: ArrayBuffer) => void>();
let resume: (() => void) | undefined;
let nextId = 0;

const send = (message: ToParent) => port.postMessage(message);

port.on('message', (message: FromParent) => {
  if (message.type === 'bytes') {
    reads.get(message.id)?.(message.buffer);
    reads.delete(message.id);
  } else {
    resume?.();
    resume = undefined;
  }
});

const file: ParquetBytes = {
  byteLength: (workerData as { byteLength: number }).byteLength,
  slice(start, end) {
    const id = nextId++;
    return new Promise((resolve) => {
      reads.set(id, resolve);
      send({ type: 'read', id, start, end });
    });
  },
};

void (async () => {
  for await (const event of decodeParquet(file)) {
    // Waits for the parent to check this batch before decoding the next: memory holds one batch.
    const checked = new Promise<void>((resolve) => (resume = resolve));
    send({ type: 'event', event });
    await checked;
  }
  send({ type: 'end' });
})().catch((error: unknown) => send({ type: 'failed', message: error instanceof Error ? error.message : String(error) }));
