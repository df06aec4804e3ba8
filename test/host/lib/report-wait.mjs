// The driver's wait for a session's runner report; apart from session.mjs so a unit test can load it.
import { existsSync, readFileSync } from 'node:fs';
import { setTimeout as sleep } from 'node:timers/promises';

/**
 * Polls the runner's report until it says done, the server dies, or `stallMs` pass without a test ending. The runner
 * writes the report as it starts: with none after `startMs`, `notStarted` runs once (the caller loads the window again).
 */
export async function waitForReport(reportPath, server, stallMs, { startMs = Infinity, notStarted } = {}) {
  let deadline = Date.now() + stallMs;
  let startBy = Date.now() + startMs;
  let seen = '';
  while (Date.now() < deadline) {
    if (notStarted && Date.now() > startBy && !existsSync(reportPath)) {
      startBy = Infinity;
      await notStarted();
      deadline = Date.now() + stallMs;
    }
    if (existsSync(reportPath)) {
      const text = readFileSync(reportPath, 'utf8');
      if (JSON.parse(text).done) return text;
      // A test ended since the last look: the suites are moving, however slowly the machine runs them.
      if (text !== seen) deadline = Date.now() + stallMs;
      seen = text;
    }
    if (server.exitCode !== null) break;
    await sleep(300);
  }
  return existsSync(reportPath) ? readFileSync(reportPath, 'utf8') : undefined;
}
