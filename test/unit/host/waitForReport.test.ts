import assert from 'node:assert/strict';
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
// @ts-expect-error: the host harness is plain JavaScript without declarations.
import { waitForReport } from '../../host/lib/report-wait.mjs';

const running = { exitCode: null };
const done = JSON.stringify({ done: true, tests: [] });

describe('host harness: waiting for the runner’s report', () => {
  let dir: string;
  beforeEach(() => (dir = mkdtempSync(path.join(os.tmpdir(), 'mtrl-report-'))));
  afterEach(() => rmSync(dir, { recursive: true, force: true }));

  it('loads the window again once when the runner has not started (no report), then reads the report it writes', async () => {
    const report = path.join(dir, 'report.json');
    let reloads = 0;
    const text = (await waitForReport(report, running, 60_000, {
      startMs: 100,
      notStarted: () => {
        reloads++;
        // The window loaded again starts the runner, which writes the report; it finishes soon after.
        setTimeout(() => writeFileSync(report, done), 400);
      },
    })) as string;
    assert.equal(reloads, 1);
    assert.equal(text, done);
  });

  it('leaves a runner that started alone, however long its first test takes', async () => {
    const report = path.join(dir, 'report.json');
    writeFileSync(report, JSON.stringify({ done: false, tests: [] }));
    let reloads = 0;
    setTimeout(() => writeFileSync(report, done), 1_000);
    const text = (await waitForReport(report, running, 60_000, { startMs: 100, notStarted: () => void reloads++ })) as string;
    assert.equal(reloads, 0);
    assert.equal(text, done);
  });
});
