import { strict as assert } from 'node:assert';
import { assignSteps, boundariesFromMetrics, boundariesFromStatus, parseStepLine, StepClock } from '../../../../src/core/rollouts';
import type { Transcript } from '../../../../src/core/transcript/model';
import { transcriptFromRecord } from '../../../../src/core/transcript/record';

describe('service log step lines', () => {
  it('reads "Step N/M" with its time and ignores anything else', () => {
    assert.deepEqual(parseStepLine('Step 3/100: 1024 rollouts completed (3072/102400)', 42), { step: 3, end: 42, of: 100 });
    assert.equal(parseStepLine('[Training] Training in progress', 1), undefined);
    assert.equal(parseStepLine('Step 0/10', 1), undefined, 'steps are 1-based');
    assert.equal(parseStepLine('Step 11/10', 1), undefined, 'past the last step is not a step');
  });

  it('dates a rollout into the first step that ended at or after it, the running step after the last end, else unknown', () => {
    const clock = new StepClock([
      { step: 2, end: 200, of: 3 },
      { step: 1, end: 100, of: 3 },
    ]);
    assert.deepEqual(
      [50, 100, 101, 200, 250].map((t) => clock.stepAt(t)),
      [1, 1, 2, 2, 3],
    );
    assert.equal(clock.lastStep, 2);
    assert.equal(clock.startOf(2), 100);
    const finished = new StepClock([{ step: 1, end: 100, of: 1 }]);
    assert.equal(finished.stepAt(150), undefined, 'after the final step nothing is guessed');
    assert.equal(new StepClock([]).stepAt(5), undefined);
  });

  it('fills only rollouts without a better step, and says where each step came from', () => {
    const recorded = transcriptFromRecord({
      mtrl_rollout: 1,
      trajectory_id: 'a',
      answer: 'crane',
      turns: [],
      solved: false,
      reward: -1.5,
      step: 7,
    })!;
    const bare = (id: string): Transcript => ({ id, task: { prompt: '' }, groupKey: '', status: 'completed', turns: [], source: 'log' });
    const timed: Transcript = { ...bare('b'), time: 150 };
    const untimed = bare('c');
    recorded.time = 150;
    const n = assignSteps(
      [recorded, timed, untimed],
      new StepClock([
        { step: 1, end: 100, of: 9 },
        { step: 2, end: 200, of: 9 },
      ]),
    );
    assert.equal(n, 1);
    assert.deepEqual([recorded.step, recorded.stepFrom], [7, 'record']);
    assert.deepEqual([timed.step, timed.stepFrom], [2, 'log']);
    assert.equal(untimed.step, undefined);
  });

  it('takes a record step only when it is a whole number', () => {
    const step = (value: unknown) =>
      transcriptFromRecord({ mtrl_rollout: 1, answer: 'crane', turns: [], solved: false, reward: 0, step: value })?.step;
    assert.deepEqual(
      [step(3), step('4'), step(-1), step(1.5), step('x'), step(undefined)],
      [3, 4, undefined, undefined, undefined, undefined],
    );
  });

  it('reads step ends from status messages and from MLflow metric times', () => {
    const status = boundariesFromStatus([
      { message: 'Downloading input data', start: 10 },
      { message: 'Training in progress, step 1/3: RolloutStart', start: 20 },
      { message: 'Training in progress, step 2/3: RolloutStart', start: 300 },
      { message: 'Training in progress, step 2/3: CheckpointStart', start: 350 },
      { message: 'Training in progress, step 3/3: RolloutStart', start: 600 },
    ]);
    assert.deepEqual(status, [
      { step: 1, end: 300, of: 3 },
      { step: 2, end: 600, of: 3 },
    ]);
    const clock = new StepClock(status, 'time');
    assert.deepEqual(
      [100, 400, 700].map((t) => clock.stepAt(t)),
      [1, 2, 3],
    );
    const metrics = boundariesFromMetrics([
      { step: 1, timestamp: 90 },
      { step: 1, timestamp: 100 },
      { step: 2, timestamp: 200 },
    ]);
    assert.deepEqual(metrics, [
      { step: 1, end: 100 },
      { step: 2, end: 200 },
    ]);
  });
});
