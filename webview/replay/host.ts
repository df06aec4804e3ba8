import { ReplayData, RolloutPipeline } from '../../src/core/rollouts';
import { RolloutScan } from '../../src/core/scan/findings';
import { replayHandlers, type InitialState, type PersistedState, type ReplayProtocol } from '../../src/shared/protocol';
import type { HostChannel } from '../../src/webview-kit/host';
import { connectPage, type PageChannel, type PageConnection } from '../../src/webview-kit/webview';

/** The board's side of the conversation: VS Code's postMessage, or an in-page host for the plain-browser demo. */
export type BoardConnection = PageConnection<ReplayProtocol, PersistedState>;
export type BoardChannel = PageChannel<ReplayProtocol>;

/** Reads the embedded fixture lines in the page with the same core code and request handlers the extension uses. */
function serveFixture(host: HostChannel<ReplayProtocol>, lines: string[]): void {
  const scan = new RolloutScan();
  const data = new ReplayData([], undefined, scan);
  host.serve(replayHandlers(data, scan));
  host.onReady(() => {
    if (!data.size) {
      const pipeline = new RolloutPipeline();
      for (const text of lines) pipeline.feed({ text });
      data.append(pipeline.finish());
    }
    host.notify(
      'status',
      data.size
        ? { state: 'ready', rollouts: data.size, following: false }
        : { state: 'empty', message: 'No rollouts in the embedded lines.' },
    );
  });
}

export function connectBoard(initial: InitialState): BoardConnection {
  return connectPage<ReplayProtocol, PersistedState>((host) => serveFixture(host, initial.fixture ?? []));
}
