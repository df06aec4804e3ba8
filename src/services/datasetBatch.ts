import { readdir, readFile } from 'node:fs/promises';
import { dirname, join } from 'node:path';
import { batchSizeFromJobFiles, type DatasetBatchSize } from '../core/jobs/datasetBatch';

/** The batch size a job file beside a local dataset (same folder, or the working folder) trains it at; undefined when none names it. */
export async function batchSizeBesideDataset(datasetPath: string, workingFolder = process.cwd()): Promise<DatasetBatchSize | undefined> {
  const folders = [...new Set([dirname(datasetPath), workingFolder])];
  const jobFiles: { name: string; text: string }[] = [];
  for (const folder of folders) {
    const names = await readdir(folder).catch(() => [] as string[]);
    for (const name of names.filter((n) => n.endsWith('.mtrl.json')).sort()) {
      const text = await readFile(join(folder, name), 'utf8').catch(() => undefined);
      if (text !== undefined) jobFiles.push({ name, text });
    }
  }
  return batchSizeFromJobFiles(datasetPath, jobFiles);
}
