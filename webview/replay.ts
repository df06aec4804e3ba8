// The replay board app: one bundle for the VS Code webview and for a plain browser page (tests, benches, demos).
import '@vscode-elements/elements/dist/vscode-button/index.js';
import '@vscode-elements/elements/dist/vscode-checkbox/index.js';
import '@vscode-elements/elements/dist/vscode-multi-select/index.js';
import '@vscode-elements/elements/dist/vscode-option/index.js';
import '@vscode-elements/elements/dist/vscode-progress-ring/index.js';
import '@vscode-elements/elements/dist/vscode-single-select/index.js';
import '@vscode-elements/elements/dist/vscode-textfield/index.js';
import type { InitialState } from '../src/shared/protocol';
import { readInitialState } from '../src/webview-kit/webview';
import { ReplayBoard } from './replay/app';
import { connectBoard } from './replay/host';
import actionsCss from './replay/actions.css';
import css from './replay/replay.css';
import { RENDERER_STYLES } from './replay/renderers/styles';
import { adoptStyles } from '../src/webview-kit/styles';

adoptStyles(css, ...RENDERER_STYLES, actionsCss);

const initial = readInitialState<InitialState>();
const root = document.getElementById('root') ?? document.body;
if (initial) new ReplayBoard(root, initial, connectBoard(initial));
else root.textContent = 'The replay board has no initial state: the page is missing its mtrl-initial script.';
