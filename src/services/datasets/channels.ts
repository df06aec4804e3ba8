// The launch pre-flight's dataset check: each channel read from S3, and the overlap of train and validation.
import type { S3Client } from '@aws-sdk/client-s3';
import type { Explain } from '../../aws/errors';
import { listObjectsV2, parseS3Uri, s3Uri } from '../../aws/s3';
import { compareTrainVal, formatFromName, otherKindOfName, type DatasetReport, type DatasetRole } from '../../core/dataset';
import type { DatasetFacts } from '../../core/jobs/preflight';
import { DatasetUnreadable, validateSource } from './sources';

const ROLE: Record<string, DatasetRole> = { train: 'training', validation: 'validation', evaluation: 'evaluation' };

interface ChannelReport {
  facts: DatasetFacts;
  report?: DatasetReport;
}

/** The dataset objects a channel names: the object itself, or every dataset file under an S3 prefix. */
async function objectKeys(s3: S3Client, bucket: string, key: string, signal?: AbortSignal): Promise<string[]> {
  if (formatFromName(key)) return [key];
  const keys: string[] = [];
  for await (const o of listObjectsV2(s3, bucket, key, signal)) if (o.Key && formatFromName(o.Key)) keys.push(o.Key);
  return keys;
}

/** Streams one channel from S3 through the dataset checks (a prefix of several files counts as one dataset). */
async function readChannel(
  s3: S3Client,
  channel: string,
  uri: string,
  batchSize: number,
  explain: Explain,
  signal?: AbortSignal,
): Promise<ChannelReport> {
  const location = parseS3Uri(uri);
  if (!location) return { facts: { channel, uri, unreadable: 'not an s3:// URI', errors: [] } };
  try {
    const keys = await objectKeys(s3, location.bucket, location.key, signal);
    if (keys.length === 0) {
      const unreadable = otherKindOfName(location.key) ?? 'no .jsonl, .json, .csv or .parquet object there';
      return { facts: { channel, uri, unreadable, errors: [] } };
    }
    let rows = 0;
    const errors: string[] = [];
    let merged: DatasetReport | undefined;
    for (const key of keys) {
      const report = await validateSource(
        s3Uri({ bucket: location.bucket, key }),
        { role: ROLE[channel], batchSize, maxFindings: 20 },
        { aws: { s3: () => s3 }, explain, signal },
      );
      rows += report.rows;
      const prefix = keys.length > 1 ? `${key}: ` : '';
      for (const f of report.findings)
        if (f.severity === 'error' && f.code !== 'too-few-rows') errors.push(`${prefix}${f.row ? `row ${f.row}: ` : ''}${f.message}`);
      merged = merged
        ? {
            ...merged,
            ids: new Map([...merged.ids, ...report.ids]),
            prompts: new Map([...merged.prompts, ...report.prompts]),
            answers: new Map([...merged.answers, ...report.answers]),
            taskAnswers: new Set([...merged.taskAnswers, ...report.taskAnswers]),
          }
        : report;
    }
    return { facts: { channel, uri, rows, errors }, report: merged };
  } catch (error) {
    signal?.throwIfAborted();
    // Worded for the channel's URI (a prefix may hold several objects), from the error behind it.
    const reason = error instanceof DatasetUnreadable ? error.reason : error;
    return { facts: { channel, uri, unreadable: explain(reason, `Reading ${uri}`), errors: [] } };
  }
}

/** Every channel checked, plus how many tasks train and validation share (by id, prompt, or an answer that is the task); `explain` says why a channel cannot be read. */
export async function readDatasets(
  s3: S3Client,
  channels: Record<string, string>,
  batchSize: number,
  explain: Explain,
  signal?: AbortSignal,
): Promise<{ facts: DatasetFacts[]; overlap?: number }> {
  const read = await Promise.all(
    Object.entries(channels).map(([channel, uri]) => readChannel(s3, channel, uri, batchSize, explain, signal)),
  );
  const train = read.find((r) => r.facts.channel === 'train')?.report;
  const validation = read.find((r) => r.facts.channel === 'validation')?.report;
  if (!train || !validation) return { facts: read.map((r) => r.facts) };
  const { overlap } = compareTrainVal(train, validation, { training: channels.train, validation: channels.validation }, 0);
  return { facts: read.map((r) => r.facts), overlap: Math.max(overlap.ids.length, overlap.prompts.length, overlap.answers.length) };
}
