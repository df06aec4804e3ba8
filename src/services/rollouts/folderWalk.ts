import { lstatSync, readdirSync, statSync, type Dirent } from 'node:fs';
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
/** Entries looked at from each end to find them: past these, the folder is walked entry by entry. */
const LOOKED_AT = 4 * SAMPLED;

/** A file to read: `expected` when its path was inferred from the layout (no stat: read it, and walk `entry` if absent). */
export interface FolderFile {
  file: string;
  /** The folder entry the path was inferred from: walked (or read, being a file) when the file is not there. */
  expected?: { entry: string };
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

/** Whether an entry is a folder (false), a file that can hold rollouts (true), or neither (undefined); links are not followed. */
function kindOf(full: string, name: string): boolean | undefined {
  const info = lstatSync(full);
  if (info.isDirectory()) return false;
  return (info.isFile() || info.isSymbolicLink()) && READABLE.test(name) ? true : undefined;
}

/** The layout of `dir`'s entries (names in name order), told from the first SAMPLED folders or files and the last. */
export function layoutOf(dir: string, names: readonly string[]): FolderLayout {
  // One lstat per sampled entry: a listing with types costs twice a listing of names on 100,000 folders.
  const kinds = new Map<string, boolean>();
  const held = (name: string) => {
    const kind = kindOf(dir + path.sep + name, name);
    if (kind !== undefined) kinds.set(name, kind);
    return kind !== undefined;
  };
  const first: string[] = [];
  for (let i = 0; i < Math.min(names.length, LOOKED_AT) && first.length < SAMPLED; i++) if (held(names[i])) first.push(names[i]);
  let last: string | undefined;
  const end = Math.max(0, names.length - LOOKED_AT);
  for (let i = names.length - 1; i >= end && last === undefined && !first.includes(names[i]); i--) if (held(names[i])) last = names[i];
  if (last === undefined) return {};
  const sample = [...first, last];
  if (sample.every((name) => kinds.get(name)))
    return { flat: sample.every((name) => statSync(dir + path.sep + name).size <= WHOLE_FILE_BYTES) };
  if (sample.some((name) => kinds.get(name))) return {};
  let inner: string | undefined;
  for (const name of sample) {
    const found = walkedNames(dir + path.sep + name);
    if (found.length !== 1 || (inner !== undefined && found[0] !== inner)) return {};
    inner = found[0];
  }
  return { inner };
}

/**
 * The files under `dir` that can hold rollouts, in name order, listed as the walk reaches them (the first rollouts need
 * not wait for the last listing). Where the layout is told, each entry's file is named without a stat or a listing of
 * its own; an entry of another shape is walked when the read finds the file absent (entryFiles). A link with a readable
 * name is given, so a dangling one is an error that names it, not a file left out unsaid.
 */
export function* filesUnder(dir: string): Generator<FolderFile> {
  const names = readdirSync(dir).sort(byName);
  const layout = layoutOf(dir, names);
  if (layout.inner || layout.flat) {
    for (const name of names) {
      const entry = dir + path.sep + name;
      if (layout.inner) yield { file: entry + path.sep + layout.inner, expected: { entry }, unsized: true };
      else if (READABLE.test(name)) yield { file: entry, expected: { entry }, unsized: true };
      else yield* entryFiles(entry);
    }
    return;
  }
  for (const entry of entriesOf(dir)) {
    const full = dir + path.sep + entry.name;
    if (entry.isDirectory()) yield* filesUnder(full);
    else if (isReadableFile(entry)) yield { file: full };
  }
}

/** The files of one folder entry: a folder's walked, a file that can hold rollouts itself, else none. */
export function* entryFiles(entry: string): Generator<FolderFile> {
  const kind = kindOf(entry, path.basename(entry));
  if (kind === false) yield* filesUnder(entry);
  else if (kind) yield { file: entry };
}
