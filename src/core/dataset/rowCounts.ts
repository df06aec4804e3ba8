import type { FindingCode } from './types';

/** What a training file's row count earns: refused at or under the batch, a warning under ten batches, else nothing. */
export function rowCountFinding(
  rows: number,
  batchSize: number,
  source = 'the default',
): { code: FindingCode; message: string } | undefined {
  if (rows <= batchSize)
    return {
      code: 'too-few-rows',
      // The service's own sentence, and where our batch size came from.
      message:
        `The service refuses this file: "Training data has ${rows} prompts but global_batch_size is ${batchSize}. ` +
        `The number of prompts must be greater than the batch size." Add rows or lower global_batch_size (${batchSize} from ${source}).`,
    };
  if (rows < 10 * batchSize)
    return {
      code: 'small-dataset',
      message: `${rows} rows is fewer than 10 × global_batch_size (${10 * batchSize}) recommended for training (global_batch_size ${batchSize} from ${source}).`,
    };
  return undefined;
}
