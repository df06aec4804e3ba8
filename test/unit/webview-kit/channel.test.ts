import { strict as assert } from 'node:assert';
import { Channel, linkedPorts, type Port, type WireMessage } from '../../../src/webview-kit/channel';

interface Asks {
  add: { params: { a: number; b: number }; result: number };
  fail: { params: undefined; result: never };
  slow: { params: { ms: number }; result: string };
}
type Page = Channel<{ hello: string }, { tick: number }, Record<never, never>, Asks>;
type Host = Channel<{ tick: number }, { hello: string }, Asks, Record<never, never>>;

/** A port that records what is posted and lets the test deliver anything. */
function recordingPort(): Port & { sent: WireMessage[]; deliver(message: unknown): void } {
  let receive: ((message: unknown) => void) | undefined;
  const sent: WireMessage[] = [];
  return {
    sent,
    post: (m) => void sent.push(m),
    listen: (r) => ((receive = r), () => (receive = undefined)),
    deliver: (m) => receive?.(m),
  };
}

function pair(unknown: string[] = []): { page: Page; host: Host } {
  const [a, b] = linkedPorts();
  const host: Host = new Channel(b, { onUnknown: (_, why) => unknown.push(`host: ${why}`) });
  host.serve({
    add: ({ a, b }) => a + b,
    fail: () => {
      throw new Error('no such rollout');
    },
    slow: ({ ms }) => new Promise((resolve) => setTimeout(() => resolve(`after ${ms}`), ms)),
  });
  return { page: new Channel(a, { onUnknown: (_, why) => unknown.push(`page: ${why}`) }), host };
}

describe('webview kit: channel', () => {
  it('matches responses to requests by id, also when answers come back out of order', async () => {
    const { page } = pair();
    const [slow, fast, sum] = await Promise.all([
      page.request('slow', { ms: 30 }),
      page.request('slow', { ms: 1 }),
      page.request('add', { a: 2, b: 3 }),
    ]);
    assert.deepEqual([slow, fast, sum], ['after 30', 'after 1', 5]);
  });

  it("turns a handler error into the caller's rejection with the same message", async () => {
    const { page } = pair();
    await assert.rejects(page.request('fail', undefined), /^Error: no such rollout$/);
  });

  it('rejects a request nobody answers after its timeout, and reports the late answer as unknown', async () => {
    const unknown: string[] = [];
    const { page } = pair(unknown);
    await assert.rejects(page.request('slow', { ms: 80 }, 20), /No answer to 'slow' within 20 ms/);
    // The late answer comes when the handler's 80 ms are up, later still on a loaded machine: wait for it, not for a time.
    while (!unknown.length) await new Promise((resolve) => setTimeout(resolve, 10));
    assert.deepEqual(unknown, ['page: no request 1 is waiting (timed out or answered)']);
  });

  it('answers an unknown request with an error instead of leaving the caller waiting', async () => {
    const unknown: string[] = [];
    const { page } = pair(unknown);
    await assert.rejects(
      (page as unknown as Channel<object, object, object, { nope: { params: number; result: number } }>).request('nope', 1),
      /Unknown request 'nope'\./,
    );
    assert.deepEqual(unknown, ["host: no handler for 'nope'"]);
  });

  it('delivers notifications to every listener until it stops listening', async () => {
    const { page, host } = pair();
    const ticks: number[] = [];
    const stop = page.on('tick', (n) => ticks.push(n));
    page.on('tick', (n) => ticks.push(n * 10));
    host.notify('tick', 1);
    await new Promise((resolve) => setTimeout(resolve, 5));
    stop();
    host.notify('tick', 2);
    await new Promise((resolve) => setTimeout(resolve, 5));
    assert.deepEqual(ticks, [1, 10, 20]);
  });

  it('ignores foreign and malformed messages and notifications nobody listens to, reporting each', () => {
    const port = recordingPort();
    const unknown: string[] = [];
    const channel = new Channel<object, { tick: number }, object, object>(port, { onUnknown: (_, why) => unknown.push(why) });
    for (const message of [null, 'text', { type: 'status' }, { kind: 'request', method: 'x' }, { kind: 'response' }]) port.deliver(message);
    port.deliver({ kind: 'notify', method: 'tock' });
    assert.deepEqual(unknown, [...Array(5).fill('not a kit message'), "no listener for 'tock'"]);
    assert.deepEqual(port.sent, []);
    channel.dispose();
  });

  it('rejects waiting requests when disposed and stops listening', async () => {
    const port = recordingPort();
    const channel = new Channel<object, object, object, Asks>(port);
    const waiting = channel.request('add', { a: 1, b: 1 });
    assert.deepEqual(port.sent, [{ kind: 'request', id: 1, method: 'add', params: { a: 1, b: 1 } }]);
    channel.dispose();
    await assert.rejects(waiting, /closed before it answered/);
    port.deliver({ kind: 'response', id: 1, result: 2 });
  });
});
