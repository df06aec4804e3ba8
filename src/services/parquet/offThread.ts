import path from 'node:path';
import type { Worker } from 'node:worker_threads';
import type { ParquetBytes, ParquetColumns, ParquetDecoder, ParquetEvent } from '../../core/dataset/parquet';
import { BatchRows } from './batch';
import type { FromParent, ToParent, WorkerStart } from './messages';

/** Seconds the decoder may work on one batch (reads from disk or S3 not counted) before the file is given up. */
export const PARQUET_BUDGET_SECONDS = 30;

/** Rows checked between two turns of the event loop: about 20 ms of checking. */
const PIECE_ROWS = 8192;

/** The worker script: bundled beside extension.js and cli.js; under tsx (tests, bench) its TypeScript source. */
function startWorker(workerData: WorkerStart): Worker {
  // node:worker_threads loads with the first Parquet file, not at activation.
  // eslint-disable-next-line @typescript-eslint/no-require-imports
  const { Worker } = require('node:worker_threads') as typeof import('node:worker_threads');
  if (!__filename.endsWith('.ts')) return new Worker(path.join(__dirname, 'parquetWorker.js'), { workerData });
  const source = `require('tsx/cjs'); require(${JSON.stringify(path.join(__dirname, 'worker.ts'))});`;
  return new Worker(source, { eval: true, workerData });
}

/**
 * A decoder that runs hyparquet on a worker thread: a corrupt file can make it loop, and a synchronous loop
 * cannot be cancelled, so past the budget the worker is terminated and the file gets one `unreadable` event.
 */
export function offThreadParquet(budgetSeconds = PARQUET_BUDGET_SECONDS): ParquetDecoder {
  return (file, columns) => decodeInWorker(file, columns, budgetSeconds);
}

async function* decodeInWorker(file: ParquetBytes, columns: ParquetColumns, budgetSeconds: number): AsyncGenerator<ParquetEvent> {
  const worker = startWorker({ byteLength: file.byteLength, columns });
  const inbox: ToParent[] = [];
  let wake: (() => void) | undefined;
  const deliver = (message: ToParent) => {
    inbox.push(message);
    wake?.();
  };
  let reading = 0;
  // Loading the worker's code is not the decoder's time: the clock starts at its first message.
  let started = false;
  let nextRow = 0;
  worker.on('error', (error) => deliver({ type: 'failed', message: error.message }));
  worker.on('exit', () => deliver({ type: 'failed', message: 'the decoder stopped' }));
  worker.on('message', (message: ToParent) => {
    started = true;
    if (message.type !== 'read') return deliver(message);
    // Reads are the parent's work, so they do not count against the decoder's budget.
    reading++;
    Promise.resolve(file.slice(message.start, message.end))
      .then(
        (buffer) => post({ type: 'bytes', id: message.id, buffer }),
        (error: unknown) => deliver({ type: 'failed', message: error instanceof Error ? error.message : String(error) }),
      )
      .finally(() => {
        reading--;
        wake?.();
      });
  });
  const post = (message: FromParent) => worker.postMessage(message);
  /** The next message, or undefined when the decoder used its budget without a word. */
  const receive = async (): Promise<ToParent | undefined> => {
    let idle = 0;
    const step = 250;
    while (!inbox.length) {
      let timer: NodeJS.Timeout | undefined;
      await new Promise<void>((resolve) => {
        wake = resolve;
        timer = setTimeout(resolve, step);
      });
      clearTimeout(timer);
      wake = undefined;
      if (!inbox.length && reading === 0 && started) idle += step;
      if (idle >= budgetSeconds * 1000) return undefined;
    }
    return inbox.shift();
  };
  try {
    for (;;) {
      const message = await receive();
      if (!message) {
        yield {
          kind: 'unreadable',
          message: `The Parquet file could not be read in ${budgetSeconds} s: the decoder did not finish (a corrupt byte can make it loop). Re-export the file.`,
          row: nextRow + 1,
          timedOut: true,
        };
        return;
      }
      if (message.type === 'end') return;
      if (message.type === 'failed') {
        yield {
          kind: 'unreadable',
          message: `The Parquet file could not be read: ${message.message.replace(/\.?$/, '.')}`,
          row: nextRow + 1,
        };
        return;
      }
      if (message.type === 'event') {
        yield message.event;
        return;
      }
      if (message.type === 'rows') {
        const { batch } = message;
        const rows = new BatchRows(batch);
        for (let from = 0; from < batch.count; from += PIECE_ROWS) {
          // Back to the event loop between pieces, so the worker's reads for the next batch are answered while this one is checked.
          await new Promise<void>((resolve) => setImmediate(resolve));
          const to = Math.min(batch.count, from + PIECE_ROWS);
          nextRow = batch.start + to;
          const fileColumns = from === 0 ? batch.fileColumns : undefined;
          yield { kind: 'rows', start: batch.start + from, rows: rows.rows(from, to), fileRows: batch.fileRows, fileColumns };
        }
        post({ type: 'next' });
      }
    }
  } finally {
    worker.removeAllListeners();
    await worker.terminate();
  }
}
