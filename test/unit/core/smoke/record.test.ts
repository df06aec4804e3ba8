import { strict as assert } from 'node:assert';
import { describeRecord } from '../../../../src/core/smoke/record';

describe('smoke results', () => {
  it('describes a result by verdict and age', () => {
    const now = Date.parse('2026-11-29T20:00:00.000Z');
    assert.equal(describeRecord(undefined, now), 'not smoke-tested');
    assert.equal(describeRecord({ ok: true, at: '2026-11-29T19:59:50.000Z', summary: '' }, now), 'smoke passed just now');
    assert.equal(describeRecord({ ok: false, at: '2026-11-29T19:35:00.000Z', summary: '' }, now), 'smoke failed 25 min ago');
    assert.equal(describeRecord({ ok: true, at: '2026-11-29T15:00:00.000Z', summary: '' }, now), 'smoke passed 5 h ago');
    assert.equal(describeRecord({ ok: true, at: '2026-11-20T20:00:00.000Z', summary: '' }, now), 'smoke passed 9 d ago');
  });
});
