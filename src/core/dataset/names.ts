import type { DatasetFormat, DatasetRole } from './types';

/** The format a file name says, from its extension (an S3 key or a path alike). */
export function formatFromName(name: string): DatasetFormat | undefined {
  const m = /\.(jsonl|ndjson|json|csv|parquet)$/i.exec(name);
  if (!m) return undefined;
  const ext = m[1].toLowerCase();
  return ext === 'ndjson' ? 'jsonl' : (ext as DatasetFormat);
}

/** A file's role from its base name: `train` → training, `val` → validation, `eval`/`test` → evaluation; anything else has none. */
export function roleFromName(name: string): DatasetRole | undefined {
  const base = (name.split(/[\\/]/).pop() ?? name).toLowerCase();
  if (/train/.test(base)) return 'training';
  if (/eval|test/.test(base)) return 'evaluation';
  if (/val/.test(base)) return 'validation';
  return undefined;
}

/** The base name without its extension, for generated ids like `train_0007`. */
export function fileStem(name: string): string {
  const base = name.split(/[\\/]/).pop() ?? name;
  return base.replace(/\.[^.]+$/, '') || 'row';
}
