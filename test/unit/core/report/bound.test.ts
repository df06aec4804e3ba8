import { strict as assert } from 'node:assert';
import { boundRollouts, REPORT_LIMITS, reportKeeper } from '../../../../src/core/report/bound';
import type { Transcript } from '../../../../src/core/transcript/model';

function rollout(group: number, k: number, thinking = 'think'): Transcript {
  return {
    id: `g${group}-r${k}`,
    task: { prompt: `Task ${group}` },
    groupKey: `task ${group}@1`,
    step: 1,
    reward: k / 4,
    status: 'completed',
    turns: [{ thinking, toolCalls: [{ name: 'take_support_action', arguments: { action: 'check_outage' }, result: 'ok' }] }],
    source: 'record',
  };
}

const many = (groups: number, size: number, thinking?: string) =>
  Array.from({ length: groups * size }, (_, i) => rollout(Math.floor(i / size), i % size, thinking));

describe('the shared report size bound', () => {
  it('keeps every rollout of a small source, unchanged, and says nothing', () => {
    const rollouts = many(10, 4);
    const bound = boundRollouts(rollouts);
    assert.deepEqual(bound.rollouts, rollouts);
    assert.deepEqual(bound.notes, []);
  });

  it('keeps the first rollouts of each larger group, in the order read, with a sentence', () => {
    const bound = boundRollouts(many(3, 20), { ...REPORT_LIMITS, rolloutsPerGroup: 5 });
    assert.equal(bound.rollouts.length, 15);
    assert.deepEqual(
      bound.rollouts.filter((t) => t.groupKey === 'task 1@1').map((t) => t.id),
      ['g1-r0', 'g1-r1', 'g1-r2', 'g1-r3', 'g1-r4'],
    );
    assert.deepEqual(bound.notes, [
      'This report shows the first 5 rollouts of each group (3 groups have more); the counts above are of every rollout.',
      '45 of 60 rollouts are not in this report.',
    ]);
  });

  it('cuts long texts, saying how much was left out, and keeps short JSON as JSON', () => {
    const bound = boundRollouts([rollout(0, 0, 'x'.repeat(5000))], { ...REPORT_LIMITS, textChars: 100 });
    const [t] = bound.rollouts;
    assert.equal(bound.rollouts[0].turns[0].thinking, `${'x'.repeat(100)}… (4,900 more characters not in this report)`);
    assert.deepEqual(t.turns[0].toolCalls[0].arguments, { action: 'check_outage' });
    assert.match(bound.notes[0], /^1 text longer than 100 characters is cut/);
  });

  it('keeps as many rollouts per group as fit the byte budget (1,000 rollouts of 8 kB thinking)', () => {
    const rollouts = many(125, 8, 'y'.repeat(8000));
    const bound = boundRollouts(rollouts);
    const bytes = new TextEncoder().encode(JSON.stringify(bound.rollouts)).length;
    assert.ok(bytes <= REPORT_LIMITS.bytes, `${bytes} bytes`);
    assert.equal(new Set(bound.rollouts.map((t) => t.groupKey)).size, 125, 'every group keeps a rollout');
    // Each rollout's thinking is cut to 4,000 characters (~4.3 kB a rollout): 7 of 8 per group fit in 4.2 MB, 8 would not.
    assert.equal(bound.rollouts.length, 875);
    assert.match(bound.notes[0], /^This report shows the first 7 rollouts of each group \(125 groups have more\)/);
    assert.ok(bound.notes.includes('1,000 texts longer than 4,000 characters are cut, each saying how much was left out.'));
  });

  it('keeps the first groups that fit when one rollout per group is still too large', () => {
    const bound = boundRollouts(many(50, 2, 'z'.repeat(3000)), { rolloutsPerGroup: 4, textChars: 4000, bytes: 40_000 });
    const groups = new Set(bound.rollouts.map((t) => t.groupKey)).size;
    assert.ok(groups > 1 && groups < 50, `${groups} groups`);
    assert.ok(bound.notes.includes(`Only the first ${groups} of 50 groups fit in this report's size.`), bound.notes.join('\n'));
  });

  it('keeps whole, as rollouts are read, only what the report may carry of each group', () => {
    const keep = reportKeeper({ ...REPORT_LIMITS, rolloutsPerGroup: 2 });
    const kept = many(2, 4, 'long thinking').map(keep);
    const whole = kept.filter((t) => t.turns[0].thinking !== undefined).map((t) => t.id);
    assert.deepEqual(whole, ['g0-r0', 'g0-r1', 'g1-r0', 'g1-r1']);
    assert.deepEqual(
      kept.map((t) => [t.groupKey, t.reward, t.turns[0].toolCalls[0].name]),
      many(2, 4).map((t) => [t.groupKey, t.reward, 'take_support_action']),
      'the rest keep what the counts read',
    );
    assert.deepEqual(
      boundRollouts(kept, { ...REPORT_LIMITS, rolloutsPerGroup: 2 }).rollouts.map((t) => t.id),
      whole,
    );
  });
});
