import { Channel, INITIAL_STATE_ID, linkedPorts, type ChannelOptions, type Port, type ViewProtocol, type WireMessage } from './channel';
import { HostChannel } from './host';

// The page's half of the kit: runs in the webview (or a plain browser page), never in Node.

interface VsCodeApi {
  postMessage(message: unknown): void;
  setState(state: unknown): void;
  getState(): unknown;
}
declare function acquireVsCodeApi(): VsCodeApi;

/** The state the extension embedded in the page (`webviewPage({ initial })`), or undefined when the page has none. */
export function readInitialState<T>(id = INITIAL_STATE_ID): T | undefined {
  const text = document.getElementById(id)?.textContent;
  return text ? (JSON.parse(text) as T) : undefined;
}

type Ready = { ready: undefined };

/** The page side of a view: asks the extension, listens to it, and says `ready` once its listeners are in place. */
export class PageChannel<P extends ViewProtocol> extends Channel<P['toHost'] & Ready, P['toPage'], Record<never, never>, P['requests']> {
  ready(): void {
    this.send({ kind: 'notify', method: 'ready' });
  }
}

export interface PageConnection<P extends ViewProtocol, S> {
  channel: PageChannel<P>;
  /** Kept by VS Code across hide/show and window reloads (read back by the panel serializer). */
  saveState(state: S): void;
  restoredState(): S | undefined;
  /** True inside VS Code, false in a plain browser page. */
  inVsCode: boolean;
}

function vscodePort(api: VsCodeApi): Port {
  return {
    post: (message) => api.postMessage(message),
    listen: (receive) => {
      const listener = (event: MessageEvent) => receive(event.data);
      window.addEventListener('message', listener);
      return () => window.removeEventListener('message', listener);
    },
  };
}

/**
 * The one test hook of every app in a plain browser page: `window.mtrlHost` sends the view what the extension would, and
 * `window.mtrlSent` (when a test sets it to []) records each notification the view sent, as `{ type, ...params }`.
 */
interface PageTestHook {
  mtrlHost?: HostChannel<ViewProtocol>;
  mtrlSent?: unknown[];
}

/** The in-page host's end of the pipe, recording the view's notifications (the kit's `ready` handshake aside) for tests. */
function recordedForTests(port: Port, hook: PageTestHook): Port {
  return {
    post: (message) => port.post(message),
    listen: (receive) =>
      port.listen((message) => {
        const wire = message as WireMessage;
        if (wire?.kind === 'notify' && wire.method !== 'ready') hook.mtrlSent?.push({ type: wire.method, ...(wire.params as object) });
        receive(message);
      }),
  };
}

/**
 * Connects the page to the extension. Outside VS Code (plain-browser demos, tests, benches) a host channel in the same
 * page stands in (`serveInPage` may answer with the handlers the extension uses), and state lives only in memory.
 */
export function connectPage<P extends ViewProtocol, S>(
  serveInPage?: (host: HostChannel<P>) => void,
  options?: ChannelOptions,
): PageConnection<P, S> {
  if (typeof acquireVsCodeApi === 'function') {
    const api = acquireVsCodeApi();
    return {
      channel: new PageChannel<P>(vscodePort(api), options),
      saveState: (state) => api.setState(state),
      restoredState: () => (api.getState() as S | undefined) ?? undefined,
      inVsCode: true,
    };
  }
  const [pageEnd, hostEnd] = linkedPorts();
  const hook = globalThis as PageTestHook;
  const host = new HostChannel<P>(recordedForTests(hostEnd, hook), options);
  hook.mtrlHost = host as unknown as HostChannel<ViewProtocol>;
  serveInPage?.(host);
  let saved: S | undefined;
  return {
    channel: new PageChannel<P>(pageEnd, options),
    saveState: (state) => (saved = state),
    restoredState: () => saved,
    inVsCode: false,
  };
}
