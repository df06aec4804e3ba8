import assert from 'node:assert/strict';
import { formatResults, parseReport, sessionResults, summarize } from '../../host/lib/report';

const passing = { title: 'activation registers commands', state: 'passed', durationMs: 12 };
const failing = {
  title: 'activation runs',
  state: 'failed',
  durationMs: 3,
  error: { message: 'boom', stack: 'Error: boom\n    at activate' },
};

describe('host report', () => {
  it('counts passes and failures of a finished report', () => {
    const report = parseReport(JSON.stringify({ startedAt: 'x', done: true, tests: [passing, failing], measurements: {} }));
    const results = sessionResults('trusted', report, 1000);
    assert.deepEqual(summarize(results), { passed: 1, failed: 1 });
    assert.match(formatResults(results), /host: 1 passed, 1 failed$/);
    assert.match(formatResults(results), /Error: boom/);
  });

  it('fails a session whose runner never wrote a report', () => {
    const results = sessionResults('trusted', undefined, 5000);
    assert.deepEqual(summarize(results), { passed: 0, failed: 1 });
    assert.match(results[0].error ?? '', /no report within 5 s/);
  });

  it('fails a session that did not finish in time, keeping what passed', () => {
    const results = sessionResults('trusted', { startedAt: 'x', done: false, tests: [passing as never], measurements: {} }, 2000);
    assert.deepEqual(summarize(results), { passed: 1, failed: 1 });
    assert.match(results[1].error ?? '', /did not finish within 2 s/);
  });

  it('fails on a runner error even when every test passed', () => {
    const results = sessionResults(
      'untrusted',
      { startedAt: 'x', done: true, fatal: 'Cannot find module mocha', tests: [passing as never], measurements: {} },
      1000,
    );
    assert.deepEqual(summarize(results), { passed: 1, failed: 1 });
  });

  it('counts a run where nothing ran as a failure', () => {
    assert.deepEqual(summarize([]), { passed: 0, failed: 1 });
    assert.match(formatResults([]), /no host test or UI check ran/);
  });

  it('leaves pending tests out of both counts', () => {
    const results = sessionResults(
      'trusted',
      { startedAt: 'x', done: true, tests: [{ ...passing, state: 'pending' } as never, passing as never], measurements: {} },
      1000,
    );
    assert.deepEqual(summarize(results), { passed: 1, failed: 0 });
  });

  it('rejects a malformed report instead of reading it as empty', () => {
    assert.throws(() => parseReport('{"tests": []}'), /not \{done, tests\[\]\}/);
    assert.throws(() => parseReport('{"done": true, "tests": [{"title": "x", "state": "ok"}]}'), /malformed test entry/);
    assert.throws(() => parseReport('not json'));
  });
});
