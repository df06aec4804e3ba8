// The metrics view app: uPlot charts of a job's MLflow metrics (see src/features/metrics/ for the host side).
import '@vscode-elements/elements/dist/vscode-button/index.js';
import '@vscode-elements/elements/dist/vscode-progress-ring/index.js';
import '@vscode-elements/elements/dist/vscode-textfield/index.js';
import uplotCss from 'uplot/dist/uPlot.min.css';
import type { MetricsProtocol, MetricsState, PersistedMetrics } from '../src/shared/metrics';
import { connectPage, readInitialState } from '../src/webview-kit/webview';
import { MetricsView } from './metrics/app';
import css from './metrics/metrics.css';
import { adoptStyles } from '../src/webview-kit/styles';

adoptStyles(uplotCss, css);

const initial = readInitialState<MetricsState>();
const root = document.getElementById('root') ?? document.body;
if (initial) new MetricsView(root, initial, connectPage<MetricsProtocol, PersistedMetrics>());
else root.textContent = 'The metrics view has no initial state: the page is missing its mtrl-initial script.';
