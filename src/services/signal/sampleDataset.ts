import { createHash } from 'node:crypto';
import type { S3Client } from '@aws-sdk/client-s3';
import {
  getObject,
  getObjectText,
  headObject,
  isPreconditionFailed,
  listObjectsV2,
  parseS3Uri,
  s3Uri,
  upload,
  type S3Location,
} from '../../aws/s3';
import { formatFromName } from '../../core/dataset';
import { datasetRows } from '../../core/dataset/datasetRows';
import { sampleRows } from '../../core/signal/sampleRows';

/** The K rows a cloud signal check evaluates, written to S3 beside the training data. */
export interface SampledDataset {
  /** Where the sampled rows are: `<folder>/mtrl-signal-check/<hash>.jsonl`. */
  uri: string;
  /** Rows written (fewer than asked when the dataset is smaller). */
  rows: number;
  /** Rows in the training dataset. */
  datasetRows: number;
  /** False when the same rows were already there (an earlier check with the same seed). */
  created: boolean;
}

/** The folder the check's objects go in: beside the dataset object, or beside a dataset folder (never inside it, where training would read them). */
export function signalCheckFolder(dataset: S3Location): S3Location {
  // `data/train.jsonl` → `data/`; a folder `data/wordle/` → `data/`.
  const key = dataset.key.replace(/\/+$/, '');
  return { bucket: dataset.bucket, key: `${key.slice(0, key.lastIndexOf('/') + 1)}mtrl-signal-check/` };
}

async function bytesOf(s3: S3Client, location: S3Location, signal?: AbortSignal): Promise<Uint8Array> {
  const parts: Uint8Array[] = [];
  for await (const chunk of getObject(s3, location, undefined, signal)) parts.push(chunk);
  return Buffer.concat(parts);
}

/** Read whole to sample it: a larger training set is refused with a sentence rather than exhausting memory. */
export const SAMPLED_DATASET_BYTES = 256 * 1024 * 1024;

async function sizeOf(s3: S3Client, location: S3Location, uri: string, signal?: AbortSignal): Promise<number> {
  try {
    return (await headObject(s3, location, signal)).size;
  } catch (error) {
    // HEAD's 404 has no body, so the SDK cannot name it: say it here.
    if ((error as { $metadata?: { httpStatusCode?: number } }).$metadata?.httpStatusCode === 404)
      throw new Error(`There is no object at ${uri}: check the training data's URI.`, { cause: error });
    throw error;
  }
}

/** Every row of the dataset an S3 URI names: one object, or every dataset file under a prefix (as the service reads a channel). */
async function rowsAt(s3: S3Client, uri: string, signal?: AbortSignal): Promise<Record<string, unknown>[]> {
  const location = parseS3Uri(uri);
  if (!location || !location.key) throw new Error(`${uri} is not an s3://bucket/key URI of a dataset.`);
  const objects: { key: string; size: number }[] = [];
  if (formatFromName(location.key)) objects.push({ key: location.key, size: await sizeOf(s3, location, uri, signal) });
  else
    for await (const o of listObjectsV2(s3, location.bucket, location.key, signal))
      if (o.Key && formatFromName(o.Key) && !o.Key.includes('/mtrl-signal-check/')) objects.push({ key: o.Key, size: o.Size ?? 0 });
  if (!objects.length) throw new Error(`No .jsonl, .json, .csv or .parquet dataset at ${uri}.`);
  const bytes = objects.reduce((sum, o) => sum + o.size, 0);
  if (bytes > SAMPLED_DATASET_BYTES)
    throw new Error(
      `${uri} holds ${Math.round(bytes / 2 ** 20)} MB, more than the ${SAMPLED_DATASET_BYTES / 2 ** 20} MB a signal check reads to sample it: give --data a smaller file of its rows.`,
    );
  const rows: Record<string, unknown>[] = [];
  for (const { key } of objects.sort((a, b) => a.key.localeCompare(b.key)))
    rows.push(...(await datasetRows(await bytesOf(s3, { bucket: location.bucket, key }, signal), formatFromName(key)!)));
  return rows;
}

/** Keys tried for one sample: its hash, then a few more when someone else's object holds that key. */
const SAMPLE_KEYS = 4;

/**
 * Writes the rows create-only under their hash; an object already there is reused only when it holds these very rows
 * (read back, bounded by their size), else the next key is tried, so the check never runs on rows it did not sample.
 */
async function writeOnce(
  s3: S3Client,
  folder: S3Location,
  hash: string,
  text: string,
  signal?: AbortSignal,
): Promise<{ target: S3Location; created: boolean }> {
  const bytes = Buffer.byteLength(text);
  for (let n = 1; n <= SAMPLE_KEYS; n++) {
    const target = { bucket: folder.bucket, key: `${folder.key}${hash}${n > 1 ? `-${n}` : ''}.jsonl` };
    try {
      await upload(s3, target, text, { contentType: 'application/jsonl', createOnly: true, signal });
      return { target, created: true };
    } catch (error) {
      if (!isPreconditionFailed(error)) throw error;
    }
    const there = await getObjectText(s3, target, { bytes: bytes + 1, seconds: 60 }, signal).catch((error: unknown) => {
      if (signal?.aborted) throw error;
      // Larger than these rows, or unreadable: not them.
      return undefined;
    });
    if (there === text) return { target, created: false };
  }
  throw new Error(
    `s3://${folder.bucket}/${folder.key}${hash}.jsonl and ${SAMPLE_KEYS - 1} keys after it hold other rows than the ones sampled: delete those objects (they are MTRL's) or pick another --seed.`,
  );
}

/**
 * Samples `k` rows of the training dataset with the seed and writes them as JSON Lines under a name made of their
 * content: the same rows always land on the same key, and the user's own objects are never written.
 */
export async function writeSampledDataset(
  s3: S3Client,
  dataset: string,
  k: number,
  seed: string | number,
  signal?: AbortSignal,
): Promise<SampledDataset> {
  const rows = await rowsAt(s3, dataset, signal);
  if (!rows.length) throw new Error(`${dataset} has no rows to sample.`);
  const text = sampleRows(rows, k, seed)
    .map(({ row }) => JSON.stringify(row))
    .join('\n')
    .concat('\n');
  const hash = createHash('sha256').update(text).digest('hex').slice(0, 16);
  const folder = signalCheckFolder(parseS3Uri(dataset)!);
  const { target, created } = await writeOnce(s3, folder, hash, text, signal);
  return { uri: s3Uri(target), rows: Math.min(k, rows.length), datasetRows: rows.length, created };
}
