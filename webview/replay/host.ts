import { ReplayData, RolloutCollector } from '../../src/core/rollouts';
import { answerRequest, type HostMessage, type InitialState, type PersistedState, type ReplayRequests, type RequestMethod, type WebviewMessage } from '../../src/shared/protocol';

/** The board's side of the conversation: VS Code's postMessage, or an in-page host for the plain-browser demo. */
export interface BoardHost {
  request<M extends RequestMethod>(method: M, params: ReplayRequests[M]['params']): Promise<ReplayRequests[M]['result']>;
  post(message: WebviewMessage): void;
  onMessage(listener: (message: HostMessage) => void): void;
  saveState(state: PersistedState): void;
  /** What the page saved before it was hidden or reloaded, if anything. */
  restored(): PersistedState | undefined;
}

interface VsCodeApi {
  postMessage(message: unknown): void;
  setState(state: unknown): void;
  getState(): unknown;
}
declare function acquireVsCodeApi(): VsCodeApi;

class VsCodeHost implements BoardHost {
  private readonly api = acquireVsCodeApi();
  private readonly pending = new Map<number, { resolve(value: unknown): void; reject(error: Error): void }>();
  private readonly listeners: ((message: HostMessage) => void)[] = [];
  private nextId = 1;

  constructor() {
    window.addEventListener('message', (event: MessageEvent<HostMessage>) => {
      const message = event.data;
      if (message?.type === 'response') {
        const waiting = this.pending.get(message.id);
        this.pending.delete(message.id);
        if (message.error !== undefined) waiting?.reject(new Error(message.error));
        else waiting?.resolve(message.result);
      } else if (message) for (const listener of this.listeners) listener(message);
    });
  }

  request<M extends RequestMethod>(method: M, params: ReplayRequests[M]['params']): Promise<ReplayRequests[M]['result']> {
    const id = this.nextId++;
    return new Promise((resolve, reject) => {
      this.pending.set(id, { resolve: resolve as (v: unknown) => void, reject });
      this.api.postMessage({ type: 'request', id, method, params } satisfies WebviewMessage);
    });
  }
  post(message: WebviewMessage): void {
    this.api.postMessage(message);
  }
  onMessage(listener: (message: HostMessage) => void): void {
    this.listeners.push(listener);
  }
  saveState(state: PersistedState): void {
    this.api.setState(state);
  }
  restored(): PersistedState | undefined {
    return (this.api.getState() as PersistedState | undefined) ?? undefined;
  }
}

/** Reads the embedded fixture lines in the page with the same core code the extension uses. */
class InPageHost implements BoardHost {
  private readonly listeners: ((message: HostMessage) => void)[] = [];
  private readonly data = new ReplayData();

  constructor(private readonly lines: string[]) {}

  request<M extends RequestMethod>(method: M, params: ReplayRequests[M]['params']): Promise<ReplayRequests[M]['result']> {
    return Promise.resolve(answerRequest(this.data, method, params) as ReplayRequests[M]['result']);
  }
  post(message: WebviewMessage): void {
    if (message.type !== 'ready') return;
    const collector = new RolloutCollector();
    for (const line of this.lines) collector.add(line);
    this.data.append(collector.finish());
    const status: HostMessage = this.data.size ? { type: 'status', status: { state: 'ready', rollouts: this.data.size, following: false } } : { type: 'status', status: { state: 'empty', message: 'No rollouts in the embedded lines.' } };
    setTimeout(() => this.listeners.forEach((l) => l(status)), 0);
  }
  onMessage(listener: (message: HostMessage) => void): void {
    this.listeners.push(listener);
  }
  saveState(): void {}
  restored(): undefined {
    return undefined;
  }
}

export function connectHost(initial: InitialState): BoardHost {
  return typeof acquireVsCodeApi === 'function' ? new VsCodeHost() : new InPageHost(initial.fixture ?? []);
}
