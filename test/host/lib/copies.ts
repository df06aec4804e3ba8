// Every host suite and every UI check group works on a copy of the fixture folder it owns, inside the opened workspace:
// made fresh before it runs, taken out of the workspace after, so nothing one writes is ever read by another.
import { cpSync, existsSync, mkdirSync, readdirSync, renameSync, rmSync } from 'node:fs';
import path from 'node:path';

/** Folders handed out in this process: never handed out again, so no document VS Code still holds names a new copy's file. */
const used = new Set<string>();

/** `name` made safe and not yet used in `dir` (on disk or earlier in this session): `-2`, `-3`… appended. */
function freePath(dir: string, name: string): string {
  const base = name.replace(/[^A-Za-z0-9-]+/g, '-').replace(/^-+|-+$/g, '') || 'suite';
  for (let n = 1; ; n++) {
    const candidate = path.join(dir, n === 1 ? base : `${base}-${n}`);
    if (!used.has(candidate) && !existsSync(candidate)) {
      used.add(candidate);
      return candidate;
    }
  }
}

/**
 * Copies `fixture` into a new folder of `workspace` named after `name` and returns its path. Folders copied for earlier
 * suites are gone by then (see `retireCopy`), so the product's workspace-wide searches see this copy only.
 *
 * Folders are made one depth at a time and `watched` resolves once VS Code's file watcher has seen each: on Linux it
 * watches a new folder only when its parent was watched at that moment (parcel-bundler/watcher#97), so a copy made in one
 * go can leave `copy/datasets` unwatched and a change there never reaches an extension. Files are copied last.
 */
export async function freshCopy(
  fixture: string,
  workspace: string,
  name: string,
  watched: (folders: string[]) => Promise<void> = async () => undefined,
): Promise<string> {
  const copy = freePath(workspace, name);
  let level = [{ from: fixture, to: copy }];
  while (level.length) {
    for (const { to } of level) mkdirSync(to);
    await watched(level.map((l) => l.to));
    level = level.flatMap(({ from, to }) =>
      readdirSync(from, { withFileTypes: true })
        .filter((entry) => entry.isDirectory())
        .map((entry) => ({ from: path.join(from, entry.name), to: path.join(to, entry.name) })),
    );
  }
  cpSync(fixture, copy, { recursive: true });
  return copy;
}

/** Takes a copy out of the workspace: moved into `keepIn` (a failed suite's files, for the artifacts), else deleted; returns where it went. */
export function retireCopy(copy: string, keepIn?: string): string | undefined {
  if (!existsSync(copy)) return undefined;
  if (!keepIn) {
    rmSync(copy, { recursive: true, force: true });
    return undefined;
  }
  mkdirSync(keepIn, { recursive: true });
  const kept = freePath(keepIn, path.basename(copy));
  renameSync(copy, kept);
  return kept;
}
