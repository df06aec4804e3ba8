// The learning-signal view app: one check's report as figures and bars (see src/features/signal/ for the host side).
import '@vscode-elements/elements/dist/vscode-button/index.js';
import '@vscode-elements/elements/dist/vscode-progress-ring/index.js';
import type { InitialSignal, PersistedSignal, SignalProtocol } from '../src/shared/signal';
import { connectPage, readInitialState } from '../src/webview-kit/webview';
import { SignalView } from './signal/app';
import css from './signal/signal.css';
import { adoptStyles } from '../src/webview-kit/styles';

adoptStyles(css);

const initial = readInitialState<InitialSignal>();
const root = document.getElementById('root') ?? document.body;
if (initial) new SignalView(root, initial, connectPage<SignalProtocol, PersistedSignal>());
else root.textContent = 'The learning-signal view has no initial state: the page is missing its mtrl-initial script.';
