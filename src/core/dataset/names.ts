import type { DatasetFormat, DatasetRole } from './types';

/** The format a file name says, from its extension (an S3 key or a path alike); `.jsonl.gz`, `.csv.gz` and `.json.gz` are read decompressed. */
export function formatFromName(name: string): DatasetFormat | undefined {
  const m = /\.(?:(jsonl|ndjson|json|csv)(?:\.gz)?|(parquet))$/i.exec(name);
  if (!m) return undefined;
  const ext = (m[1] ?? m[2]).toLowerCase();
  return ext === 'ndjson' ? 'jsonl' : (ext as DatasetFormat);
}

/** A file's role from its base name: `train` → training, `val` → validation, `eval`/`test` → evaluation; anything else has none. */
export function roleFromName(name: string): DatasetRole | undefined {
  const base = (name.split(/[\\/]/).pop() ?? name).toLowerCase();
  // Whole words of the name only (split at anything but letters), so `constrained-prompts` is not a training file.
  const words = base.replace(/\.[^.]+$/, '').split(/[^a-z]+/);
  if (words.some((w) => w === 'train' || w === 'training')) return 'training';
  if (words.some((w) => w === 'eval' || w === 'evaluation' || w === 'test')) return 'evaluation';
  if (words.some((w) => w === 'val' || w === 'valid' || w === 'validation')) return 'validation';
  return undefined;
}

/** The base name without its extension, for generated ids like `train_0007`. */
export function fileStem(name: string): string {
  const base = name.split(/[\\/]/).pop() ?? name;
  return base.replace(/\.[^.]+$/, '') || 'row';
}
