// The metrics view app: uPlot charts of a job's MLflow metrics (see src/features/metrics/ for the host side).
import '@vscode-elements/elements/dist/vscode-button/index.js';
import '@vscode-elements/elements/dist/vscode-progress-ring/index.js';
import '@vscode-elements/elements/dist/vscode-textfield/index.js';
import uplotCss from 'uplot/dist/uPlot.min.css';
import type { MetricsHostMessage, MetricsState, MetricsWebviewMessage, PersistedMetrics } from '../src/shared/metrics';
import { MetricsView, type MetricsHost } from './metrics/app';
import css from './metrics/metrics.css';

const sheet = new CSSStyleSheet();
sheet.replaceSync(`${uplotCss}\n${css}`);
document.adoptedStyleSheets = [...document.adoptedStyleSheets, sheet];

declare function acquireVsCodeApi(): { postMessage(message: unknown): void; setState(state: PersistedMetrics): void };

/** VS Code's postMessage; in a plain browser page (bench, tests) messages go to `window.mtrlMetricsHost`. */
function connect(): MetricsHost {
  const api = typeof acquireVsCodeApi === 'function' ? acquireVsCodeApi() : undefined;
  return {
    post: (message: MetricsWebviewMessage) =>
      api ? api.postMessage(message) : (window as unknown as { mtrlMetricsSent?: MetricsWebviewMessage[] }).mtrlMetricsSent?.push(message),
    persist: (state: PersistedMetrics) => api?.setState(state),
    onMessage: (listener) =>
      window.addEventListener('message', (event: MessageEvent<MetricsHostMessage>) => event.data && listener(event.data)),
  };
}

const initial = JSON.parse(document.getElementById('mtrl-initial')?.textContent ?? 'null') as MetricsState | null;
const root = document.getElementById('root') ?? document.body;
if (initial) new MetricsView(root, initial, connect());
else root.textContent = 'The metrics view has no initial state: the page is missing its mtrl-initial script.';
