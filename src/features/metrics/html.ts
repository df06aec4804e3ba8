import { embedJson } from '../replay/html';
import type { MetricsState } from '../../shared/metrics';

export interface MetricsPage {
  scriptUri: string;
  codiconUri: string;
  cspSource: string;
  nonce: string;
  initial: MetricsState;
}

const attr = (text: string) => text.replace(/&/g, '&amp;').replace(/"/g, '&quot;').replace(/</g, '&lt;');

/** The metrics view's HTML: CSP `default-src 'none'`, one nonce'd script; uPlot's inline styles need `style-src 'unsafe-inline'`. */
export function metricsHtml(page: MetricsPage): string {
  const csp = [`default-src 'none'`, `script-src 'nonce-${page.nonce}'`, `style-src ${page.cspSource} 'unsafe-inline'`, `font-src ${page.cspSource}`].join('; ');
  return `<!DOCTYPE html>
<html lang="en">
<head>
<meta charset="UTF-8">
<meta http-equiv="Content-Security-Policy" content="${attr(csp)}">
<meta name="viewport" content="width=device-width, initial-scale=1.0">
<link id="vscode-codicon-stylesheet" rel="stylesheet" href="${attr(page.codiconUri)}">
<title>Training curves</title>
</head>
<body>
<div id="root"></div>
<script type="application/json" id="mtrl-initial">${embedJson(page.initial)}</script>
<script nonce="${attr(page.nonce)}" src="${attr(page.scriptUri)}"></script>
</body>
</html>`;
}
