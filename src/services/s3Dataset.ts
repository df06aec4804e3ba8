import type { S3Client } from '@aws-sdk/client-s3';
import { formatFromName, validateDataset, validateParquet, type DatasetReport, type RunOptions } from '../core/dataset';
import { getObject, objectByRanges, type S3Location } from '../aws/s3';
import { offThreadParquet } from './parquet/offThread';

/** Validates a dataset object where it lies: text formats streamed, Parquet read by byte ranges, so memory stays flat. */
export async function validateS3Dataset(
  client: S3Client,
  location: S3Location,
  options: Omit<RunOptions, 'format'>,
  signal?: AbortSignal,
): Promise<DatasetReport> {
  const format = formatFromName(location.key) ?? 'jsonl';
  if (format === 'parquet')
    return validateParquet(await objectByRanges(client, location, signal), { parquetDecoder: offThreadParquet(), ...options, format });
  return validateDataset(getObject(client, location, undefined, signal), { ...options, format });
}
