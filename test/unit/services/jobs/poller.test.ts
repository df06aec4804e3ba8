import { strict as assert } from 'node:assert';
import { JobsPoller, type Timer } from '../../../../src/services/jobs/poller';

/** A timer the test advances by hand: it records what the poller scheduled. */
class ManualTimer implements Timer {
  pending: Array<{ callback: () => void; ms: number; id: number }> = [];
  private next = 1;
  setTimeout(callback: () => void, ms: number): unknown {
    const id = this.next++;
    this.pending.push({ callback, ms, id });
    return id;
  }
  clearTimeout(handle: unknown): void {
    this.pending = this.pending.filter((p) => p.id !== handle);
  }
  /** Runs the one scheduled callback and lets the poll's promise settle. */
  async fire(): Promise<number> {
    assert.equal(this.pending.length, 1, 'exactly one poll should be scheduled');
    const { callback, ms } = this.pending.shift()!;
    callback();
    await new Promise((resolve) => setImmediate(resolve));
    return ms;
  }
}

describe('jobs poller', () => {
  function setup(running: number, fail = () => false) {
    const state = { running, polls: 0 };
    const timer = new ManualTimer();
    const poller = new JobsPoller(
      {
        hasInProgress: () => state.running > 0,
        poll: async () => {
          state.polls++;
          if (fail()) throw new Error('network down');
          state.running--;
        },
      },
      30_000,
      timer,
    );
    return { state, timer, poller };
  }

  it('schedules nothing while held (the UI checks start without a poll redrawing the rows) and polls again when released', async () => {
    const { state, timer, poller } = setup(2);
    poller.setVisible(true);
    poller.hold(true);
    assert.equal(poller.scheduled, false);
    poller.reschedule();
    assert.equal(timer.pending.length, 0);
    poller.hold(false);
    assert.equal(await timer.fire(), 30_000);
    assert.equal(state.polls, 1);
  });

  it('polls while jobs run and stops when nothing is in progress', async () => {
    const { state, timer, poller } = setup(2);
    poller.setVisible(true);
    assert.equal(await timer.fire(), 30_000);
    assert.equal(await timer.fire(), 30_000);
    assert.equal(state.polls, 2);
    assert.equal(state.running, 0);
    assert.equal(timer.pending.length, 0);
    assert.equal(poller.scheduled, false);
  });

  it('does not poll while the view is hidden, and resumes when shown', async () => {
    const { state, timer, poller } = setup(1);
    poller.setVisible(false);
    assert.equal(timer.pending.length, 0);
    poller.setVisible(true);
    assert.equal(timer.pending.length, 1);
    poller.setVisible(false);
    assert.equal(timer.pending.length, 0);
    assert.equal(state.polls, 0);
  });

  it('does not poll when nothing is in progress, until a job starts', () => {
    const { state, timer, poller } = setup(0);
    poller.setVisible(true);
    assert.equal(timer.pending.length, 0);
    state.running = 1;
    poller.reschedule();
    poller.reschedule();
    assert.equal(timer.pending.length, 1, 'a second reschedule must not stack timers');
  });

  it('doubles the wait after each error and returns to the interval after a success', async () => {
    let failing = true;
    const { timer, poller } = setup(5, () => failing);
    poller.setVisible(true);
    assert.equal(await timer.fire(), 30_000);
    assert.equal(await timer.fire(), 60_000);
    assert.equal(await timer.fire(), 120_000);
    failing = false;
    assert.equal(await timer.fire(), 240_000);
    assert.equal(await timer.fire(), 30_000);
  });

  it('caps the back-off at ten minutes', async () => {
    const { timer, poller } = setup(100, () => true);
    poller.setVisible(true);
    const waits: number[] = [];
    for (let i = 0; i < 8; i++) waits.push(await timer.fire());
    assert.deepEqual(waits.slice(-3), [600_000, 600_000, 600_000]);
  });

  it('applies a new interval at once and stops for good when disposed', async () => {
    const { timer, poller } = setup(3);
    poller.setVisible(true);
    poller.setInterval(5_000);
    assert.equal(await timer.fire(), 5_000);
    poller.dispose();
    assert.equal(timer.pending.length, 0);
    poller.reschedule();
    assert.equal(timer.pending.length, 0);
  });
});
