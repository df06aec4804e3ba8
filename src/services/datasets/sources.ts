import { createReadStream } from 'node:fs';
import { readdir, stat } from 'node:fs/promises';
import type { AwsClients } from '../../aws/clients';
import type { Explain } from '../../aws/errors';
import { getObject, objectByRanges, parseS3Uri, type S3Location } from '../../aws/s3';
import {
  formatFromName,
  otherKindOfName,
  parquetFile,
  validateDataset,
  validateParquet,
  validateText,
  type DatasetFormat,
  type DatasetReport,
  type RunOptions,
} from '../../core/dataset';
import { offThreadParquet } from '../parquet/offThread';

/** Where a dataset is: a local path or an `s3://` URI, or what an editor holds (its text, or the bytes of a file it read). */
export type DatasetSource = string | { name: string; text: string } | { name: string; bytes: Uint8Array };

/** What reading a source needs besides the checks: S3 for `s3://` URIs, the sentence for an AWS error, a stop. */
export interface SourceContext {
  aws?: Pick<AwsClients, 's3'>;
  explain?: Explain;
  signal?: AbortSignal;
  /** Seconds the Parquet decoder may spend on one batch (default: the decoder's budget). */
  readTimeout?: number;
}

/** The source could not be opened at all (no such file, no such object, no access): a sentence, not a row finding. */
export class DatasetUnreadable extends Error {
  override name = 'DatasetUnreadable';
  constructor(
    message: string,
    /** The AWS or file-system error behind it, for a caller that words it in its own terms. */
    readonly reason?: unknown,
  ) {
    super(message);
  }
}

/** The name a source goes by in findings and overlaps: its path, URI or editor name. */
export function sourceName(source: DatasetSource): string {
  return typeof source === 'string' ? source : source.name;
}

/** The format given, else the one the name says; undefined when neither tells. */
export function sourceFormat(source: DatasetSource, given?: DatasetFormat): DatasetFormat | undefined {
  return given ?? formatFromName(sourceName(source));
}

/** Opens a source and runs the dataset checks over it: text formats streamed, Parquet read by position (file or S3 byte ranges), so memory stays flat. */
export async function validateSource(
  source: DatasetSource,
  options: Omit<RunOptions, 'format'> & { format?: DatasetFormat },
  context: SourceContext = {},
): Promise<DatasetReport> {
  const format = sourceFormat(source, options.format);
  if (!format) throw new DatasetUnreadable(await whyNoFormat(sourceName(source)));
  const run: RunOptions = { ...options, format, parquetDecoder: offThreadParquet(context.readTimeout) };
  if (typeof source !== 'string') {
    if ('text' in source && format !== 'parquet') return validateText(source.text, run);
    const bytes = 'bytes' in source ? source.bytes : new TextEncoder().encode(source.text);
    return validateDataset(once(bytes), run);
  }
  const location = parseS3Uri(source);
  if (location) {
    if (format !== 'parquet') return validateDataset(await objectChunks(source, location, context), run);
    return validateParquet(await parquetObject(source, location, context), run);
  }
  await mustBeFile(source);
  if (format !== 'parquet') return validateDataset(createReadStream(source, { highWaterMark: 1024 * 1024 }), run);
  const file = await parquetFile(source);
  try {
    return await validateParquet(file, run);
  } finally {
    await file.close();
  }
}

/**
 * Why a name tells no format, in a sentence that starts with it: a file compressed otherwise than gzip, an Arrow file,
 * a folder (`datasets`' `save_to_disk` writes one), or a name that says nothing, followed by `howToTell` (the CLI's `--format`).
 */
export async function whyNoFormat(name: string, howToTell = ''): Promise<string> {
  const other = otherKindOfName(name);
  if (other) return `${name}: ${other}`;
  const entries = parseS3Uri(name) ? undefined : await readdir(name).catch(() => undefined);
  if (!entries) return `Cannot tell the format of ${name} from its name${howToTell}.`;
  if (entries.includes('dataset_dict.json') || entries.includes('state.json'))
    return (
      `${name} is a Hugging Face dataset saved with \`save_to_disk()\`, as Arrow files; the service reads JSON Lines, JSON, CSV ` +
      `or Parquet. Write Parquet from it: \`load_from_disk(${JSON.stringify(name)})${entries.includes('dataset_dict.json') ? '["train"]' : ''}.to_parquet("train.parquet")\`.`
    );
  // Spark, DuckDB and pyarrow's write_to_dataset write a folder of part files: name them, as a shell glob does.
  const files = entries.filter((e) => formatFromName(e));
  const extensions = [...new Set(files.map((f) => f.slice(f.lastIndexOf('.'))))];
  if (!files.length) return `${name} is a folder: name the dataset files in it.`;
  const glob = extensions.length === 1 ? `${name.replace(/[\\/]$/, '')}/*${extensions[0]}` : `${name.replace(/[\\/]$/, '')}/FILE`;
  return `${name} is a folder holding ${files.length} dataset file${files.length === 1 ? '' : 's'}: name ${files.length === 1 ? 'it' : 'them'} (\`mtrl validate ${glob}\`).`;
}

async function* once(bytes: Uint8Array): AsyncGenerator<Uint8Array> {
  yield bytes;
}

function unreadableObject(uri: string, error: unknown, context: SourceContext): DatasetUnreadable {
  const message = context.explain?.(error, `Reading ${uri}`) ?? `Reading ${uri} failed: ${(error as Error)?.message ?? String(error)}`;
  return new DatasetUnreadable(message, error);
}

function s3Of(context: SourceContext) {
  if (!context.aws) throw new DatasetUnreadable('Reading an s3:// URI needs AWS clients.');
  return context.aws.s3();
}

/** The object's bytes as they arrive; the first chunk is awaited here, so a missing object is unreadable rather than a row finding. */
async function objectChunks(uri: string, location: S3Location, context: SourceContext): Promise<AsyncIterable<Uint8Array>> {
  const iterator = getObject(s3Of(context), location, undefined, context.signal)[Symbol.asyncIterator]();
  let first: IteratorResult<Uint8Array>;
  try {
    first = await iterator.next();
  } catch (error) {
    throw unreadableObject(uri, error, context);
  }
  return (async function* () {
    if (!first.done) yield first.value;
    for (let next = await iterator.next(); !next.done; next = await iterator.next()) yield next.value;
  })();
}

async function parquetObject(uri: string, location: S3Location, context: SourceContext) {
  try {
    return await objectByRanges(s3Of(context), location, context.signal);
  } catch (error) {
    throw unreadableObject(uri, error, context);
  }
}

async function mustBeFile(path: string): Promise<void> {
  let isFile: boolean;
  try {
    isFile = (await stat(path)).isFile();
  } catch (error) {
    const code = (error as NodeJS.ErrnoException).code;
    throw new DatasetUnreadable(`Cannot read ${path}: ${code === 'ENOENT' ? 'no such file' : (error as Error).message}.`, error);
  }
  if (!isFile) throw new DatasetUnreadable(`${path} is not a file.`);
}
