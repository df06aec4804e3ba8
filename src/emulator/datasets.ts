import { isValidWord } from '../core/environments/wordle';
import type { DatasetRow } from './answers';
import type { World } from './world';

/** The Wordle rows of a dataset uploaded to the emulator's S3 (JSON Lines or a JSON array; the `prompt` column holds the row's JSON string). */
export function readRows(world: World, uri: string): DatasetRow[] | undefined {
  const match = /^s3:\/\/([^/]+)\/?(.*)$/.exec(uri);
  const bucket = match && world.buckets.get(match[1]);
  if (!match || !bucket) return undefined;
  const key = bucket.has(match[2]) ? match[2] : [...bucket.keys()].sort().find((k) => k.startsWith(match[2]));
  const object = key === undefined ? undefined : bucket.get(key);
  if (!object) return undefined;
  const text = object.body.toString('utf8').trim();
  let records: unknown[];
  try {
    records = text.startsWith('[')
      ? (JSON.parse(text) as unknown[])
      : text
          .split(/\r?\n/)
          .filter(Boolean)
          .map((line) => JSON.parse(line) as unknown);
  } catch {
    return undefined;
  }
  const rows: DatasetRow[] = [];
  records.forEach((record, i) => {
    const cell = record && typeof record === 'object' ? (record as Record<string, unknown>).prompt : undefined;
    try {
      const row = JSON.parse(String(cell)) as { answer?: unknown; id?: unknown };
      if (isValidWord(row.answer)) rows.push({ answer: row.answer.toLowerCase(), id: typeof row.id === 'string' ? row.id : `row_${i}` });
    } catch {
      // A row the agent would reject: the service still runs it, the emulator just skips it.
    }
  });
  return rows.length ? rows : undefined;
}
