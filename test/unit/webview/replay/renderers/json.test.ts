import { strict as assert } from 'node:assert';
import { argumentSummary, readableJson } from '../../../../../webview/replay/renderers/json';

describe('tool call text', () => {
  it('indents objects and leaves text as written', () => {
    assert.equal(readableJson({ action: 'check_outage', n: [1, 2] }), '{\n  "action": "check_outage",\n  "n": [\n    1,\n    2\n  ]\n}');
    assert.equal(readableJson('plain text result'), 'plain text result');
    assert.equal(readableJson(undefined), '');
    assert.equal(readableJson(null), 'null');
  });

  it('sums arguments up on one line, long values cut', () => {
    assert.equal(argumentSummary({ action: 'restart_router' }), 'action=restart_router');
    assert.equal(argumentSummary({ query: 'select *\nfrom t', limit: 5, opts: { a: 1 } }), 'query=select * from t, limit=5, opts={"a":1}');
    assert.equal(argumentSummary('x'.repeat(100)).length, 40);
    assert.ok(argumentSummary({ a: 'y'.repeat(30), b: 'z'.repeat(30), c: 'w'.repeat(30) }, 50).endsWith('…'));
  });
});
