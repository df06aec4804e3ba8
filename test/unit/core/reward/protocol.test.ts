import { strict as assert } from 'node:assert';
import { parseHarnessOutput, RESULT_MARKER } from '../../../../src/core/reward';

describe('reward: harness protocol', () => {
  it('reads the marked result line and ignores everything else', () => {
    const ok = { ok: true, convention: 'function', target: 'score', line: 4, stubbed: ['strands'], rewards: { 'solve@1': 1.5 } };
    assert.deepEqual(parseHarnessOutput(`noise\n${RESULT_MARKER}${JSON.stringify(ok)}\n`), ok);
    const error = { ok: false, error: 'syntax', message: 'SyntaxError: x', line: 5, column: 26 };
    assert.deepEqual(parseHarnessOutput(`${RESULT_MARKER}${JSON.stringify(error)}`), error);
  });

  it('rejects missing, malformed and ill-typed results', () => {
    assert.equal(parseHarnessOutput('{"ok": true}'), undefined);
    assert.equal(parseHarnessOutput(`${RESULT_MARKER}{not json`), undefined);
    assert.equal(parseHarnessOutput(`${RESULT_MARKER}{"ok": true, "target": "X", "rewards": {"solve@1": "1.5"}}`), undefined);
    assert.equal(parseHarnessOutput(`${RESULT_MARKER}{"ok": false, "error": "boom", "message": "m"}`), undefined);
  });
});
