import { readdirSync, statSync, type Dirent } from 'node:fs';
import path from 'node:path';

// The files of a folder of rollouts, in name order, with as few calls into the file system as its layout allows: a run's
// synced trace artifacts are 100,000 folders of one `traces.json` each (`<id>/traces.json`, or `tr-<id>/artifacts/
// traces.json` from MLflow's artifact root), and a `readdir` and `stat` per folder cost more than reading the files.

/** Names that can hold rollouts. */
const READABLE = /\.(json|jsonl|ndjson|log|txt)$/i;
/** Files read whole (and tried as one JSON document first); a larger file is streamed line by line. */
export const WHOLE_FILE_BYTES = 64 * 1024 * 1024;
/** Folders walked to tell the layout: the first ones in name order and the last. */
const SAMPLED = 8;

/** A file to read: `expected` when its path was inferred from the layout (no stat: read it, and walk `folder` if absent). */
export interface FolderFile {
  file: string;
  expected?: { folder: string };
  /** Its size is unknown (no stat was made): a text past WHOLE_FILE_BYTES is streamed once read. */
  unsized?: boolean;
}

/**
 * How a folder's entries hold their rollout files, told from a sample of them: `inner`, each subfolder holds one file at
 * this path (`traces.json`, `artifacts/traces.json`); `flat`, the entries are files small enough to read whole; else
 * neither, and every subfolder is walked.
 */
export interface FolderLayout {
  inner?: string;
  flat?: boolean;
}

const byName = new Intl.Collator().compare;
const isReadableFile = (entry: Dirent) => (entry.isFile() || entry.isSymbolicLink()) && READABLE.test(entry.name);

/** A folder's entries in name order. `dir` is normalized already: path.join would normalize it again for each of 100,000 names. */
function entriesOf(dir: string): Dirent[] {
  return readdirSync(dir, { withFileTypes: true }).sort((a, b) => byName(a.name, b.name));
}

/** Every readable file under `dir`, relative to it, walked entry by entry (for the sample the layout is told from). */
function walkedNames(dir: string, prefix = ''): string[] {
  const names: string[] = [];
  for (const entry of entriesOf(dir)) {
    if (entry.isDirectory()) names.push(...walkedNames(dir + path.sep + entry.name, prefix + entry.name + path.sep));
    else if (isReadableFile(entry)) names.push(prefix + entry.name);
  }
  return names;
}

/** The layout of `dir`'s entries, told from the first SAMPLED of them and the last. */
export function layoutOf(dir: string, entries: readonly Dirent[]): FolderLayout {
  const held = entries.filter((e) => e.isDirectory() || isReadableFile(e));
  if (held.length <= SAMPLED) return {};
  const sample = [...held.slice(0, SAMPLED), held[held.length - 1]];
  if (sample.every((e) => !e.isDirectory()))
    return { flat: sample.every((e) => statSync(dir + path.sep + e.name).size <= WHOLE_FILE_BYTES) };
  if (!sample.every((e) => e.isDirectory())) return {};
  let inner: string | undefined;
  for (const entry of sample) {
    const names = walkedNames(dir + path.sep + entry.name);
    if (names.length !== 1 || (inner !== undefined && names[0] !== inner)) return {};
    inner = names[0];
  }
  return { inner };
}

/**
 * The files under `dir` that can hold rollouts, in name order, listed as the walk reaches them (the first rollouts need
 * not wait for the last listing). Where the layout is told, a subfolder's file is named without listing the subfolder;
 * a folder missing it is walked when the read finds it absent (folderItems). A link with a readable name is given, so a
 * dangling one is an error that names it, not a file left out unsaid.
 */
export function* filesUnder(dir: string): Generator<FolderFile> {
  const entries = entriesOf(dir);
  const layout = layoutOf(dir, entries);
  for (const entry of entries) {
    const full = dir + path.sep + entry.name;
    if (entry.isDirectory()) {
      if (layout.inner) yield { file: full + path.sep + layout.inner, expected: { folder: full }, unsized: true };
      else yield* filesUnder(full);
    } else if (isReadableFile(entry)) yield layout.flat ? { file: full, unsized: true } : { file: full };
  }
}
