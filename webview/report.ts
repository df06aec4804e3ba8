// The shared report: one HTML file that opens from disk (`mtrl report`, Export Report…), the board and curves drawn in it.
import '@vscode-elements/elements/dist/vscode-button/index.js';
import '@vscode-elements/elements/dist/vscode-checkbox/index.js';
import '@vscode-elements/elements/dist/vscode-multi-select/index.js';
import '@vscode-elements/elements/dist/vscode-option/index.js';
import '@vscode-elements/elements/dist/vscode-progress-ring/index.js';
import '@vscode-elements/elements/dist/vscode-single-select/index.js';
import '@vscode-elements/elements/dist/vscode-textfield/index.js';
import codiconCss from '@vscode/codicons/dist/codicon.css';
import codiconFont from '@vscode/codicons/dist/codicon.ttf';
import uplotCss from 'uplot/dist/uPlot.min.css';
import type { ReportModel } from '../src/core/report/model';
import { readInitialState } from '../src/webview-kit/webview';
import { adoptStyles } from '../src/webview-kit/styles';
import actionsCss from './replay/actions.css';
import css from './replay/replay.css';
import { RENDERER_STYLES } from './replay/renderers/styles';
import { renderReport } from './report/app';
import reportCss from './report/report.css';

// The icon font travels inside the file; the toolkit's buttons link the sheet with this id into their shadow roots.
const icons = document.createElement('link');
icons.id = 'vscode-codicon-stylesheet';
icons.rel = 'stylesheet';
icons.href = `data:text/css;base64,${btoa(codiconCss.replace(/url\("\.\/codicon\.ttf[^"]*"\)/, `url("${codiconFont}")`))}`;
document.head.append(icons);
adoptStyles(uplotCss, css, ...RENDERER_STYLES, actionsCss, reportCss);

const model = readInitialState<ReportModel>();
const root = document.getElementById('root') ?? document.body;
if (model) renderReport(root, model);
else root.textContent = 'This report has no data: the file is missing its mtrl-initial script.';
