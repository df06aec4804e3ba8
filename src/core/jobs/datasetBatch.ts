import { defaultHyperparameters } from './hyperparameters';
import { parseBaseModelArn } from './models';
import { parseJobFile } from './jobfile';

/** The global_batch_size a training file will meet, and where that number came from in the user's words. */
export interface DatasetBatchSize {
  batchSize: number;
  source: string;
}

/** A file's base name without folders or extension: a local `prompts.csv` is the job's `s3://…/prompts.parquet`. */
function stem(path: string): string {
  return (path.split(/[\\/]/).pop() ?? path).replace(/\.[^.]+$/, '').toLowerCase();
}

/** The batch size of the first training job file whose `train` channel names this dataset (by file name), if any. */
export function batchSizeFromJobFiles(
  datasetPath: string,
  jobFiles: readonly { name: string; text: string }[],
): DatasetBatchSize | undefined {
  const wanted = stem(datasetPath);
  for (const file of jobFiles) {
    const { jobFile } = parseJobFile(file.text);
    if (jobFile?.JobCategory !== 'AgentRFT') continue;
    const document = jobFile.JobConfigDocument;
    const train = document.InputDataConfig?.find((c) => c.ChannelName === 'train');
    const uri = train?.DataSource?.S3DataSource?.S3Uri;
    if (!uri || stem(uri) !== wanted) continue;
    const config = document.TrainingConfig;
    const chosen = config?.HyperParameters?.global_batch_size;
    const modelId = config?.BaseModelArn ? parseBaseModelArn(config.BaseModelArn)?.modelId : undefined;
    const batchSize = Number(chosen ?? defaultHyperparameters('AgentRFT', modelId).global_batch_size);
    if (!Number.isInteger(batchSize) || batchSize <= 0) continue;
    const name = file.name.split(/[\\/]/).pop() ?? file.name;
    return { batchSize, source: chosen ? name : `${name} (the model's default)` };
  }
  return undefined;
}
