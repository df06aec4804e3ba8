import { Channel, type ChannelOptions, type Port, type ViewProtocol, type WireMessage } from './channel';

/** The part of `vscode.Webview` the channel uses (structural, so the kit stays free of `vscode`). */
export interface WebviewLike {
  postMessage(message: unknown): PromiseLike<boolean>;
  onDidReceiveMessage(listener: (message: unknown) => unknown): { dispose(): unknown };
}

/** The extension's end of a webview. */
function webviewPort(webview: WebviewLike): Port {
  return {
    post: (message) => void webview.postMessage(message),
    listen: (receive) => {
      const subscription = webview.onDidReceiveMessage(receive);
      return () => void subscription.dispose();
    },
  };
}

type Ready = { ready: undefined };

/**
 * The extension side of a view: serves the page's requests and notifies it. Until the page says `ready`, notifications
 * are held, the latest per method (each carries the current state of something). `onReady` runs on every `ready`, so a
 * page that reloads (hidden and shown again) gets the live state again; a held message whose method the listeners just
 * sent is dropped as stale.
 */
export class HostChannel<P extends ViewProtocol> extends Channel<P['toPage'], P['toHost'] & Ready, P['requests'], Record<never, never>> {
  private isReady = false;
  private readonly held = new Map<string, WireMessage>();
  private readonly readyListeners: (() => void)[] = [];
  private sentOnReady?: Set<string>;

  static forWebview<P extends ViewProtocol>(webview: WebviewLike, options?: ChannelOptions): HostChannel<P> {
    return new HostChannel<P>(webviewPort(webview), options);
  }

  get ready(): boolean {
    return this.isReady;
  }

  onReady(listener: () => void): void {
    this.readyListeners.push(listener);
  }

  protected override send(message: WireMessage): void {
    if (message.kind !== 'notify') return super.send(message);
    if (!this.isReady) return void this.held.set(message.method, message);
    this.sentOnReady?.add(message.method);
    super.send(message);
  }

  protected override receive(message: unknown): void {
    if ((message as WireMessage | null)?.kind !== 'notify' || (message as { method?: unknown }).method !== 'ready')
      return super.receive(message);
    this.isReady = true;
    const held = [...this.held.values()];
    this.held.clear();
    const sent = (this.sentOnReady = new Set());
    for (const listener of this.readyListeners) listener();
    this.sentOnReady = undefined;
    for (const message of held) if (message.kind === 'notify' && !sent.has(message.method)) super.send(message);
  }
}
