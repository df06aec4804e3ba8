import { readdir, readFile } from 'node:fs/promises';
import { dirname, join } from 'node:path';
import { parseS3Uri } from '../../aws/s3';
import { batchSizeFromJobFiles, type DatasetBatchSize } from '../../core/jobs/datasetBatch';

/** A job file's name (for the message) and text. */
export interface JobFileText {
  name: string;
  text: string;
}

/** Where a surface finds the batch size; every surface applies them in the same order (`batchSizeFor`). */
export interface BatchSizeRule {
  /** A number given for this run (`--batch`, the job being launched): it wins. */
  given?: DatasetBatchSize;
  /** The job files that may train the training file: the first whose `train` channel names it gives its batch size. */
  jobFiles?: (training: string) => Promise<JobFileText[]>;
  /** Else this (a setting); without it the checks use their default of 128. */
  otherwise?: DatasetBatchSize;
}

/** The one rule for the global_batch_size a training file is judged at: given, else a job file that trains it, else the fallback. */
export async function batchSizeFor(training: string | undefined, rule: BatchSizeRule): Promise<DatasetBatchSize | undefined> {
  if (rule.given) return rule.given;
  const fromJob = training && rule.jobFiles ? batchSizeFromJobFiles(training, await rule.jobFiles(training)) : undefined;
  return fromJob ?? rule.otherwise;
}

/** The `*.mtrl.json` job files beside a local dataset (same folder, then the working folder); none beside an `s3://` URI. */
export async function jobFilesBeside(datasetPath: string, workingFolder = process.cwd()): Promise<JobFileText[]> {
  if (parseS3Uri(datasetPath)) return [];
  const jobFiles: JobFileText[] = [];
  for (const folder of new Set([dirname(datasetPath), workingFolder])) {
    const names = await readdir(folder).catch(() => [] as string[]);
    for (const name of names.filter((n) => n.endsWith('.mtrl.json')).sort()) {
      const text = await readFile(join(folder, name), 'utf8').catch(() => undefined);
      if (text !== undefined) jobFiles.push({ name, text });
    }
  }
  return jobFiles;
}
