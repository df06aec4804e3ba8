import { strict as assert } from 'node:assert';
import { prepareTranscripts, ReplayData } from '../../../../src/core/rollouts';
import { meanComponents, numericComponents } from '../../../../src/core/rollouts/components';
import { componentsText } from '../../../../src/core/reward/scoreText';
import { transcriptFromRecord } from '../../../../src/core/transcript/record';

/** A support rollout whose agent reported its reward's parts in `metrics`. */
const rollout = (id: string, reward: number, metrics?: Record<string, unknown>) =>
  transcriptFromRecord({
    mtrl_rollout: 1,
    trajectory_id: id,
    prompt: 'Reset my password',
    step: 1,
    reward,
    ...(metrics ? { metrics } : {}),
  })!;

describe('board: reward components per group', () => {
  it("a group's row carries the mean of each component its members reported; text metrics are not components", () => {
    const data = new ReplayData(
      prepareTranscripts([
        rollout('a', 1.3, { outcome: 1, shaping: 0.3, note: 'x' }),
        rollout('b', 1.3, { outcome: -0.5, shaping: 1.8 }),
        rollout('c', 0.3),
      ]),
    );
    const { rows } = data.groups({}, 0, 10);
    assert.equal(rows.length, 1);
    assert.deepEqual(rows[0].components, { outcome: 0.25, shaping: 1.05 });
    assert.deepEqual(
      data.rolloutsIn(rows[0].index, {}).map((r) => r.metrics?.shaping),
      [0.3, 1.8, undefined],
    );
  });

  it('no component reported: no components on the row', () => {
    assert.deepEqual(meanComponents([undefined, { note: 'x', bad: Number.NaN }]), {});
  });

  it("a rollout's row reads its numeric metrics as components: a sum of its reward after =, else listed", () => {
    const parts = numericComponents({ outcome: -0.5, shaping: 1.8, note: 'x', bad: Number.POSITIVE_INFINITY });
    assert.deepEqual(parts, { outcome: -0.5, shaping: 1.8 });
    assert.equal(componentsText(1.3, parts), '= outcome \u22120.50 + shaping 1.80');
    assert.equal(componentsText(Number.NaN, parts), '(outcome \u22120.50 \u00b7 shaping 1.80)', 'no reward: listed');
    assert.equal(componentsText(1, numericComponents(undefined)), '');
  });
});
