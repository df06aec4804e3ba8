// The Parquet decoder's thread: bytes are asked of the parent (which owns the file or the S3 client), row batches sent back as columns.
import { parentPort, workerData } from 'node:worker_threads';
import { decodeParquet, type ParquetBytes } from '../../core/dataset/parquet';
import { transferables } from './batch';
import type { FromParent, ToParent, WorkerStart } from './messages';

const port = parentPort;
if (!port) throw new Error('The Parquet decoder runs as a worker thread.');
const start = workerData as WorkerStart;

const reads = new Map<number, (buffer: ArrayBuffer) => void>();
/** Batches sent that the parent has not yet checked. */
let unchecked = 0;
let resume: (() => void) | undefined;
let nextId = 0;

const send = (message: ToParent, transfer: ArrayBuffer[] = []) => port.postMessage(message, transfer);

port.on('message', (message: FromParent) => {
  if (message.type === 'bytes') {
    reads.get(message.id)?.(message.buffer);
    reads.delete(message.id);
  } else {
    unchecked--;
    resume?.();
    resume = undefined;
  }
});

const file: ParquetBytes = {
  byteLength: start.byteLength,
  slice(from, to) {
    const id = nextId++;
    return new Promise((resolve) => {
      reads.set(id, resolve);
      send({ type: 'read', id, start: from, end: to });
    });
  },
};

void (async () => {
  for await (const event of decodeParquet(file, start.columns, 'columns')) {
    // The next batch is decoded while the parent checks this one; past that the worker waits, so memory holds two batches.
    while (unchecked > 0) await new Promise<void>((resolve) => (resume = resolve));
    unchecked++;
    if (event.kind === 'unreadable') send({ type: 'event', event });
    else send({ type: 'rows', batch: event.batch }, transferables(event.batch));
  }
  send({ type: 'end' });
})().catch((error: unknown) => send({ type: 'failed', message: error instanceof Error ? error.message : String(error) }));
