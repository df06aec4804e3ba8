/**
 * The webview kit's typed channel: requests with ids and responses, notifications both ways, and a `ready`
 * handshake, over postMessage. The same class runs in the extension (host side) and in the page (page side).
 *
 * How a new view uses the kit (the replay board is the worked example):
 * 1. Declare its protocol in `src/shared/<view>.ts`: `interface MyProtocol extends ViewProtocol { requests: {…};
 *    toPage: {…}; toHost: {…} }` plus the initial state type.
 * 2. Extension side (`src/features/<view>/`): a `ViewDescriptor` beside the protocol, then `openViewPanel` and
 *    `showApp<MyProtocol>(panel, extensionUri, view, initial)` from `./panel` (page, options, channel), and
 *    `restoreViewPanels` for the serializer; `serve({...})` every request, `onReady(...)` to (re)send live state,
 *    `notify(...)` to push. Notifications sent before the page is ready are held (the latest per method) and
 *    delivered on `ready`.
 * 3. Page side (`webview/<view>.ts`): `readInitialState<MyInitial>()` and `connectPage<MyProtocol, MyPersisted>(...)`
 *    from `./webview`; `channel.on(...)` for notifications, `await channel.request(...)`, then `channel.ready()`.
 * Unknown or malformed messages are ignored (reported to `onUnknown`); an unknown request gets an error response.
 */

/** What one view's two sides say to each other (plain object types: interfaces are fine too). */
export interface ViewProtocol {
  /** Page → extension requests: method → `{ params; result }`. */
  requests: object;
  /** Extension → page notifications: method → params. */
  toPage: object;
  /** Page → extension notifications (the `ready` handshake is added by the kit). */
  toHost: object;
}

/** What a view is, for both halves: its panel type, the page title, and the app bundle under dist/webview/. */
export interface ViewDescriptor {
  viewType: string;
  /** `replay.js`: the page loads it with codicons and its initial state. */
  script: string;
  /** An app page's title. */
  pageTitle?: string;
}

type Requests = object;
type Notifications = object;
type Params<R, M extends keyof R> = R[M] extends { params: infer P } ? P : never;
type Result<R, M extends keyof R> = R[M] extends { result: infer T } ? T : never;

export type WireMessage =
  | { kind: 'notify'; method: string; params?: unknown }
  | { kind: 'request'; id: number; method: string; params?: unknown }
  | { kind: 'response'; id: number; result?: unknown; error?: string };

/** One end of a postMessage pipe: VS Code's webview API on either side, or an in-memory pair. */
export interface Port {
  post(message: WireMessage): void;
  /** Starts delivering incoming messages; returns a function that stops. */
  listen(receive: (message: unknown) => void): () => void;
}

/** Every request of a protocol answered, synchronously or not; a thrown error becomes the caller's rejection. */
export type RequestHandlers<R extends Requests> = { [M in keyof R]: (params: Params<R, M>) => Result<R, M> | Promise<Result<R, M>> };

/** A notification without params is sent as `notify('retry')`. */
type ParamsOf<N extends Notifications, M extends keyof N> = undefined extends N[M] ? [params?: N[M]] : [params: N[M]];

export interface ChannelOptions {
  /** How long a request waits for its response before it rejects. */
  timeoutMs?: number;
  /** Called with messages the channel cannot place: not ours, an unknown notification, a late response. */
  onUnknown?: (message: unknown, why: string) => void;
}

const DEFAULT_TIMEOUT_MS = 30_000;

/** The id of the page's embedded initial-state `<script type="application/json">`. */
export const INITIAL_STATE_ID = 'mtrl-initial';

function isWireMessage(message: unknown): message is WireMessage {
  const m = message as Partial<WireMessage> | null;
  if (typeof m !== 'object' || m === null) return false;
  if (m.kind === 'notify') return typeof m.method === 'string';
  if (m.kind === 'request') return typeof m.method === 'string' && typeof m.id === 'number';
  return m.kind === 'response' && typeof m.id === 'number';
}

interface Pending {
  resolve(value: unknown): void;
  reject(error: Error): void;
  timer: ReturnType<typeof setTimeout>;
}

/** One side of a view: sends `Send` notifications, receives `Receive`, serves `Serve` requests, asks `Ask`. */
export class Channel<Send extends Notifications, Receive extends Notifications, Serve extends Requests, Ask extends Requests> {
  private readonly listeners = new Map<string, Set<(params: unknown) => void>>();
  private readonly pending = new Map<number, Pending>();
  private handlers?: Partial<Record<string, (params: unknown) => unknown>>;
  private nextId = 1;
  private readonly stop: () => void;

  constructor(
    private readonly port: Port,
    private readonly options: ChannelOptions = {},
  ) {
    this.stop = port.listen((message) => this.receive(message));
  }

  notify<M extends keyof Send & string>(method: M, ...[params]: ParamsOf<Send, M>): void {
    this.send({ kind: 'notify', method, params });
  }

  /** Listens to one notification; returns a function that stops listening. */
  on<M extends keyof Receive & string>(method: M, listener: (params: Receive[M]) => void): () => void {
    const set = this.listeners.get(method) ?? new Set();
    this.listeners.set(method, set);
    set.add(listener as (params: unknown) => void);
    return () => set.delete(listener as (params: unknown) => void);
  }

  /** Answers every request of the protocol (the mapped type makes a missing one a type error). */
  serve(handlers: RequestHandlers<Serve>): void {
    this.handlers = handlers as Record<string, (params: unknown) => unknown>;
  }

  request<M extends keyof Ask & string>(
    method: M,
    params: Params<Ask, M>,
    timeoutMs = this.options.timeoutMs ?? DEFAULT_TIMEOUT_MS,
  ): Promise<Result<Ask, M>> {
    const id = this.nextId++;
    return new Promise((resolve, reject) => {
      const timer = setTimeout(() => {
        this.pending.delete(id);
        const wait = timeoutMs < 1000 ? `${timeoutMs} ms` : `${Math.round(timeoutMs / 1000)} s`;
        reject(new Error(`No answer to '${method}' within ${wait}: the other side of the view is not responding.`));
      }, timeoutMs);
      this.pending.set(id, { resolve: resolve as (value: unknown) => void, reject, timer });
      this.send({ kind: 'request', id, method, params });
    });
  }

  /** Stops listening and rejects requests still waiting. */
  dispose(): void {
    this.stop();
    for (const [id, waiting] of this.pending) {
      clearTimeout(waiting.timer);
      waiting.reject(new Error('The view was closed before it answered.'));
      this.pending.delete(id);
    }
  }

  protected send(message: WireMessage): void {
    this.port.post(message);
  }

  protected receive(message: unknown): void {
    if (!isWireMessage(message)) return this.unknown(message, 'not a kit message');
    if (message.kind === 'response') return this.settle(message);
    if (message.kind === 'request') return void this.answer(message);
    const listeners = this.listeners.get(message.method);
    if (!listeners?.size) return this.unknown(message, `no listener for '${message.method}'`);
    for (const listener of listeners) listener(message.params);
  }

  private settle(message: Extract<WireMessage, { kind: 'response' }>): void {
    const waiting = this.pending.get(message.id);
    if (!waiting) return this.unknown(message, `no request ${message.id} is waiting (timed out or answered)`);
    this.pending.delete(message.id);
    clearTimeout(waiting.timer);
    if (message.error !== undefined) waiting.reject(new Error(message.error));
    else waiting.resolve(message.result);
  }

  private async answer(message: Extract<WireMessage, { kind: 'request' }>): Promise<void> {
    const handler = this.handlers?.[message.method];
    if (!handler) {
      this.unknown(message, `no handler for '${message.method}'`);
      return this.send({ kind: 'response', id: message.id, error: `Unknown request '${message.method}'.` });
    }
    try {
      this.send({ kind: 'response', id: message.id, result: await handler(message.params) });
    } catch (error) {
      this.send({ kind: 'response', id: message.id, error: error instanceof Error ? error.message : String(error) });
    }
  }

  private unknown(message: unknown, why: string): void {
    this.options.onUnknown?.(message, why);
  }
}

/** Two connected in-memory ports, delivering asynchronously like postMessage: the plain-browser page and tests. */
export function linkedPorts(): [Port, Port] {
  const receivers: [((m: unknown) => void) | undefined, ((m: unknown) => void) | undefined] = [undefined, undefined];
  const end = (self: 0 | 1): Port => ({
    post: (message) => {
      const copy = structuredClone(message);
      setTimeout(() => receivers[self === 0 ? 1 : 0]?.(copy), 0);
    },
    listen: (receive) => {
      receivers[self] = receive;
      return () => (receivers[self] = undefined);
    },
  });
  return [end(0), end(1)];
}
