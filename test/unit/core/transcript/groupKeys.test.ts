import { strict as assert } from 'node:assert';
import type { Transcript } from '../../../../src/core/transcript/model';
import { groupKeyOf, groupKeysHeld } from '../../../../src/core/transcript/tasks';

const rollout = (prompt: string, more: Partial<Transcript> = {}): Transcript => ({
  id: `r-${Math.random()}`,
  // A fresh string each time, as each trace's decoded prompt is.
  task: { prompt: JSON.parse(JSON.stringify(prompt)) as string },
  groupKey: '',
  status: 'completed',
  turns: [],
  source: 'trace',
  ...more,
});

describe('group keys held by a pipeline', () => {
  it('are groupKeyOf’s keys, whatever tells the task (row, id, pack label, prompt)', () => {
    const keyOf = groupKeysHeld();
    const cases = [
      rollout('Ticket 1', { step: 3 }),
      rollout('Ticket 1', { step: 4, jobArn: 'arn:job' }),
      rollout('Ticket 1', { task: { prompt: 'Ticket 1', rowIndex: 7 } }),
      rollout('Ticket 1', { task: { prompt: 'Ticket 1', id: 'task-9' } }),
      rollout('Guess', { env: { pack: 'wordle', label: 'crane' } }),
      rollout(''),
    ];
    for (const t of cases) assert.equal(keyOf(t), groupKeyOf(t));
  });

  it('give one key for one prompt in one step, and another for another step, job or prompt', () => {
    const keyOf = groupKeysHeld();
    const a = keyOf(rollout('Ticket 1', { step: 3 }));
    assert.equal(keyOf(rollout('Ticket 1', { step: 3 })), a);
    assert.notEqual(a, keyOf(rollout('Ticket 1', { step: 4 })));
    assert.notEqual(a, keyOf(rollout('Ticket 1', { step: 3, jobArn: 'arn:other' })));
    assert.notEqual(a, keyOf(rollout('Ticket 2', { step: 3 })));
  });
});
