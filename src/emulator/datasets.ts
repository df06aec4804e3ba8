import { isValidWord } from '../core/wordle';
import { WORDLE_PROMPT, type DatasetRow } from './answers';
import type { World } from './world';

/** The rows of a dataset uploaded to the emulator's S3 (JSON Lines or a JSON array of `prompt` cells: Wordle's JSON string, or any task's text). */
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
    if (typeof cell !== 'string' || !cell.trim()) return;
    const wordle = wordleRow(cell);
    if (wordle) rows.push({ ...wordle, id: wordle.id ?? `row_${i}` });
    else rows.push({ id: `row_${i}`, prompt: cell });
  });
  return rows.length ? rows : undefined;
}

/** A Wordle row: the prompt cell holds a JSON string naming a five-letter answer. */
function wordleRow(cell: string): { id?: string; prompt: string; answer: string } | undefined {
  try {
    const row = JSON.parse(cell) as { answer?: unknown; id?: unknown; prompt?: unknown };
    if (!isValidWord(row.answer)) return undefined;
    const prompt = typeof row.prompt === 'string' && row.prompt ? row.prompt : WORDLE_PROMPT;
    return { answer: row.answer.toLowerCase(), prompt, ...(typeof row.id === 'string' ? { id: row.id } : {}) };
  } catch {
    return undefined;
  }
}
