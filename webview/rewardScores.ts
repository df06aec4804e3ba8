// The reward scores view app: each scenario's score as a bar, its transcript drawn by the board's renderers, the
// expectations kept and broken (see src/features/reward/ for the host side).
import '@vscode-elements/elements/dist/vscode-button/index.js';
import '@vscode-elements/elements/dist/vscode-progress-ring/index.js';
import type { RewardScoresProtocol, RewardScoresState } from '../src/shared/rewardScores';
import { connectPage, readInitialState } from '../src/webview-kit/webview';
import { RENDERER_STYLES } from './replay/renderers/styles';
import { RewardScoresView } from './rewardScores/app';
import css from './rewardScores/rewardScores.css';
import { adoptStyles } from '../src/webview-kit/styles';

adoptStyles(...RENDERER_STYLES, css);

const initial = readInitialState<RewardScoresState>();
const root = document.getElementById('root') ?? document.body;
if (initial) new RewardScoresView(root, initial, connectPage<RewardScoresProtocol, undefined>());
else root.textContent = 'The reward scores view has no initial state: the page is missing its mtrl-initial script.';
