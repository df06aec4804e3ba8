import { strict as assert } from 'node:assert';
import { isFinished, isInProgress, isStoppable, progressOf, progressText, statusIcon } from '../../../../src/core/jobs/status';
import { formatDuration, relativeTime, timelineOf } from '../../../../src/core/jobs/timeline';

describe('jobs status', () => {
  it('spins only for statuses that are still changing', () => {
    assert.deepEqual(statusIcon('InProgress'), { codicon: 'sync', color: 'charts.blue', spin: true });
    assert.equal(statusIcon('Stopping').spin, true);
    assert.equal(statusIcon('Completed').spin, false);
    assert.equal(statusIcon('Failed').color, 'testing.iconFailed');
    assert.equal(statusIcon('Stopped', 'MaxRuntimeExceeded').codicon, 'watch');
    assert.equal(statusIcon('Exploded').codicon, 'question');
  });

  it('knows which jobs poll, stop and delete', () => {
    assert.deepEqual(['InProgress', 'Stopping', 'Deleting', 'Completed', 'Failed'].map(isInProgress), [true, true, true, false, false]);
    assert.deepEqual(['Completed', 'Failed', 'Stopped', 'InProgress', 'Stopping'].map(isFinished), [true, true, true, false, false]);
    assert.deepEqual(['InProgress', 'Stopping', 'Completed'].map(isStoppable), [true, false, false]);
  });

  it('reads progress in the MaxSteps shape', () => {
    assert.equal(progressText({ MaxSteps: 100, CurrentStep: 42 }), 'step 42/100');
    assert.equal(progressText({ CurrentStep: 7 }), 'step 7');
    assert.equal(progressText(undefined), undefined);
    assert.equal(progressText({ MaxSteps: 100 }), undefined);
  });

  it('reads progress in the epoch shape as a global step', () => {
    const info = { MaxEpoch: 3, StepsPerEpoch: 100, CurrentEpoch: 2, CurrentStep: 50 };
    assert.deepEqual(progressOf(info), { step: 150, totalSteps: 300, epoch: 2, maxEpoch: 3 });
    assert.equal(progressText(info), 'step 150/300');
    assert.equal(progressText(info, true), 'step 150/300 (epoch 2/3)');
    assert.equal(progressText({ MaxEpoch: 3, StepsPerEpoch: 100, CurrentEpoch: 2, CurrentStep: 150 }), 'step 150/300');
  });
});

describe('jobs timeline', () => {
  const t = (iso: string) => new Date(`2026-11-29T${iso}Z`);

  it('measures each transition, the open one until now', () => {
    const entries = timelineOf(
      [
        { Status: 'Starting', StartTime: t('08:00:00'), EndTime: t('08:02:30') },
        { Status: 'Training', StartTime: t('08:02:30') },
      ],
      t('10:00:00'),
    );
    assert.deepEqual(
      entries.map((e) => [e.status, e.durationMs, e.current]),
      [
        ['Starting', 150_000, false],
        ['Training', 7_050_000, true],
      ],
    );
  });

  it('formats durations and relative times', () => {
    assert.equal(formatDuration(45_000), '45s');
    assert.equal(formatDuration(185_000), '3m 05s');
    assert.equal(formatDuration((12 * 60 + 40) * 60_000), '12h 40m');
    assert.equal(formatDuration(3 * 86_400_000 + 3_600_000), '3d 1h');
    const now = t('12:00:00');
    assert.equal(relativeTime(t('11:59:40'), now), 'just now');
    assert.equal(relativeTime(t('11:55:00'), now), '5m ago');
    assert.equal(relativeTime(t('09:00:00'), now), '3h ago');
    assert.equal(relativeTime(new Date('2026-11-27T12:00:00Z'), now), '2d ago');
    assert.equal(relativeTime(new Date('2026-01-02T12:00:00Z'), now), '2026-01-02');
  });
});
