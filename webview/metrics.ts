// The metrics view app: uPlot charts of a job's MLflow metrics (see src/features/metrics/ for the host side).
import '@vscode-elements/elements/dist/vscode-button/index.js';
import '@vscode-elements/elements/dist/vscode-progress-ring/index.js';
import '@vscode-elements/elements/dist/vscode-textfield/index.js';
import uplotCss from 'uplot/dist/uPlot.min.css';
import type { MetricsProtocol, MetricsState, PersistedMetrics } from '../src/shared/metrics';
import type { HostChannel } from '../src/webview-kit/host';
import { connectPage, readInitialState } from '../src/webview-kit/webview';
import { MetricsView } from './metrics/app';
import css from './metrics/metrics.css';
import { adoptStyles } from '../src/webview-kit/styles';

adoptStyles(uplotCss, css);

const NOTIFICATIONS = ['refresh', 'window', 'extraKeys', 'addJob', 'removeJob', 'openMlflow', 'copyCsv', 'openRollouts', 'drawn'] as const;

/**
 * In a plain browser page (bench, tests) the host half lives in the page: `window.mtrlMetricsHost` sends it state and
 * `window.mtrlMetricsSent` (when a test sets it) records what the view sent, as `{ type, ...params }`.
 */
function serveInPage(host: HostChannel<MetricsProtocol>): void {
  const w = window as unknown as { mtrlMetricsHost?: HostChannel<MetricsProtocol>; mtrlMetricsSent?: unknown[] };
  w.mtrlMetricsHost = host;
  for (const type of NOTIFICATIONS) host.on(type, (params) => w.mtrlMetricsSent?.push({ type, ...params }));
}

const initial = readInitialState<MetricsState>();
const root = document.getElementById('root') ?? document.body;
if (initial) new MetricsView(root, initial, connectPage<MetricsProtocol, PersistedMetrics>(serveInPage));
else root.textContent = 'The metrics view has no initial state: the page is missing its mtrl-initial script.';
