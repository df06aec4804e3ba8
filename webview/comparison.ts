// The evaluation comparison view app: pass@1 per settings × model with intervals, the deltas, the pass@k curves
// (see src/features/evaluations/ for the host side).
import type { ComparisonProtocol, ComparisonState } from '../src/shared/comparison';
import type { HostChannel } from '../src/webview-kit/host';
import { connectPage, readInitialState } from '../src/webview-kit/webview';
import { ComparisonView } from './comparison/app';
import css from './comparison/comparison.css';
import { adoptStyles } from '../src/webview-kit/styles';

adoptStyles(css);

/** In a plain browser page (tests) the host half lives in the page: `window.mtrlComparisonHost` sends it state. */
function serveInPage(host: HostChannel<ComparisonProtocol>): void {
  (window as unknown as { mtrlComparisonHost?: HostChannel<ComparisonProtocol> }).mtrlComparisonHost = host;
}

const initial = readInitialState<ComparisonState>();
const root = document.getElementById('root') ?? document.body;
if (initial) new ComparisonView(root, initial, connectPage<ComparisonProtocol, undefined>(serveInPage));
else root.textContent = 'The comparison view has no initial state: the page is missing its mtrl-initial script.';
