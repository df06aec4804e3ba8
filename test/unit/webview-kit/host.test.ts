import { strict as assert } from 'node:assert';
import type { Port, WireMessage } from '../../../src/webview-kit/channel';
import { HostChannel, type WebviewLike } from '../../../src/webview-kit/host';

interface Protocol {
  requests: { count: { params: undefined; result: number } };
  toPage: { status: string; settings: { dark: boolean } };
  toHost: { view: string };
}

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
const notes = (sent: WireMessage[]) => sent.map((m) => (m.kind === 'notify' ? `${m.method}:${JSON.stringify(m.params)}` : m.kind));

describe('webview kit: host channel', () => {
  it('holds notifications until ready, keeping the latest per method', () => {
    const port = recordingPort();
    const host = new HostChannel<Protocol>(port);
    host.notify('status', 'loading');
    host.notify('settings', { dark: true });
    host.notify('status', 'ready');
    assert.deepEqual(port.sent, []);
    port.deliver({ kind: 'notify', method: 'ready' });
    assert.equal(host.ready, true);
    assert.deepEqual(notes(port.sent), ['status:"ready"', 'settings:{"dark":true}']);
    host.notify('status', 'again');
    assert.deepEqual(notes(port.sent).at(-1), 'status:"again"');
  });

  it('runs onReady on every ready (a reloaded page) and drops a held message the listener just re-sent', () => {
    const port = recordingPort();
    const host = new HostChannel<Protocol>(port);
    let live = 'loading';
    host.onReady(() => host.notify('status', live));
    host.notify('status', 'stale');
    host.notify('settings', { dark: false });
    live = 'ready';
    port.deliver({ kind: 'notify', method: 'ready' });
    assert.deepEqual(notes(port.sent), ['status:"ready"', 'settings:{"dark":false}']);
    live = 'following';
    port.deliver({ kind: 'notify', method: 'ready' });
    assert.deepEqual(notes(port.sent).slice(2), ['status:"following"']);
  });

  it('answers requests and hears page notifications before ready too (responses are never held)', async () => {
    const port = recordingPort();
    const host = new HostChannel<Protocol>(port);
    const views: string[] = [];
    host.serve({ count: () => 7 });
    host.on('view', (v) => views.push(v));
    port.deliver({ kind: 'request', id: 4, method: 'count' });
    port.deliver({ kind: 'notify', method: 'view', params: 'groups' });
    await new Promise((resolve) => setImmediate(resolve));
    assert.deepEqual(port.sent, [{ kind: 'response', id: 4, result: 7 }]);
    assert.deepEqual(views, ['groups']);
  });

  it('talks to a VS Code webview through postMessage and onDidReceiveMessage, and lets go on dispose', () => {
    const posted: unknown[] = [];
    let listener: ((m: unknown) => unknown) | undefined;
    const webview: WebviewLike = {
      postMessage: (m) => (posted.push(m), Promise.resolve(true)),
      onDidReceiveMessage: (l) => ((listener = l), { dispose: () => (listener = undefined) }),
    };
    const host = HostChannel.forWebview<Protocol>(webview);
    listener?.({ kind: 'notify', method: 'ready' });
    host.notify('status', 'ready');
    assert.deepEqual(posted, [{ kind: 'notify', method: 'status', params: 'ready' }]);
    host.dispose();
    assert.equal(listener, undefined);
  });
});
