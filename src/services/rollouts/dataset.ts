import { readFile } from 'node:fs/promises';
import { datasetRows } from '../../core/dataset/datasetRows';
import { formatFromName } from '../../core/dataset/names';
import { TaskMatcher } from '../../core/transcript/tasks';

/** A local dataset's rows, read as `mtrl validate` reads JSON Lines, JSON, CSV and Parquet; errors say why in a sentence. */
export async function localDatasetRows(file: string): Promise<Record<string, unknown>[]> {
  const format = formatFromName(file);
  if (!format) throw new Error(`A dataset is a .jsonl, .json, .csv or .parquet file, not ${file}.`);
  try {
    return await datasetRows(await readFile(file), format);
  } catch (error) {
    const code = (error as NodeJS.ErrnoException).code;
    throw new Error(code === 'ENOENT' ? `Cannot read ${file}: no such file.` : `Cannot read ${file}: ${(error as Error).message}`, {
      cause: error,
    });
  }
}

/** A local dataset's rows as tasks to match rollouts to (`mtrl rollouts --data`, the board's dataset question); errors say why in a sentence. */
export async function localTasks(file: string): Promise<TaskMatcher> {
  const matcher = new TaskMatcher(await localDatasetRows(file));
  if (!matcher.size) throw new Error(`${file} has no row with a text prompt column, so no rollout can be matched to a task.`);
  return matcher;
}
