// Runs a command in the extension host through the runner's file channel (test/host/runner/commands.ts).
import { existsSync, readFileSync, renameSync, rmSync, writeFileSync } from 'node:fs';
import path from 'node:path';
import { ceiling, until } from './wait.mjs';

let next = 0;

/** Resolves with the command's result; rejects with its error, or when the host does not answer in time. */
export async function hostCommand(dir, command, args = [], { timeoutMs = ceiling(60_000) } = {}) {
  const id = `${Date.now()}-${String(next++).padStart(4, '0')}`;
  writeFileSync(path.join(dir, `${id}.tmp`), JSON.stringify({ command, args }));
  renameSync(path.join(dir, `${id}.tmp`), path.join(dir, `${id}.request.json`));
  const file = path.join(dir, `${id}.response.json`);
  await until(`the extension host to run ${command}`, () => existsSync(file), { timeoutMs, everyMs: 50 });
  const response = JSON.parse(readFileSync(file, 'utf8'));
  rmSync(file);
  if (response.error) throw new Error(`${command}: ${response.error}`);
  return response.result;
}
