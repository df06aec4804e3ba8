// The evaluation comparison view app: pass@1 per settings × model with intervals, the deltas, the pass@k curves
// (see src/features/evaluations/ for the host side).
import type { ComparisonProtocol, ComparisonState } from '../src/shared/comparison';
import { connectPage, readInitialState } from '../src/webview-kit/webview';
import { ComparisonView } from './comparison/app';
import css from './comparison/comparison.css';
import { adoptStyles } from '../src/webview-kit/styles';

adoptStyles(css);

const initial = readInitialState<ComparisonState>();
const root = document.getElementById('root') ?? document.body;
if (initial) new ComparisonView(root, initial, connectPage<ComparisonProtocol, undefined>());
else root.textContent = 'The comparison view has no initial state: the page is missing its mtrl-initial script.';
