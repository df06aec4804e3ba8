// The learning-signal view app: one check's report as figures and bars (see src/features/signal/ for the host side).
import '@vscode-elements/elements/dist/vscode-button/index.js';
import '@vscode-elements/elements/dist/vscode-progress-ring/index.js';
import type { InitialSignal, PersistedSignal, SignalProtocol } from '../src/shared/signal';
import type { HostChannel } from '../src/webview-kit/host';
import { connectPage, readInitialState } from '../src/webview-kit/webview';
import { SignalView } from './signal/app';
import css from './signal/signal.css';
import { adoptStyles } from '../src/webview-kit/styles';

adoptStyles(css);

const NOTIFICATIONS = ['openRollouts', 'tryReward', 'refresh', 'drawn'] as const;

/**
 * In a plain browser page (tests) the host half lives in the page: `window.mtrlSignalHost` sends it state and
 * `window.mtrlSignalSent` (when a test sets it) records what the view sent, as `{ type, ...params }`.
 */
function serveInPage(host: HostChannel<SignalProtocol>): void {
  const w = window as unknown as { mtrlSignalHost?: HostChannel<SignalProtocol>; mtrlSignalSent?: unknown[] };
  w.mtrlSignalHost = host;
  for (const type of NOTIFICATIONS) host.on(type, (params) => w.mtrlSignalSent?.push({ type, ...params }));
}

const initial = readInitialState<InitialSignal>();
const root = document.getElementById('root') ?? document.body;
if (initial) new SignalView(root, initial, connectPage<SignalProtocol, PersistedSignal>(serveInPage));
else root.textContent = 'The learning-signal view has no initial state: the page is missing its mtrl-initial script.';
