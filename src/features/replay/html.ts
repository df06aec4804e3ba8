import { randomBytes } from 'node:crypto';
import type { InitialState } from '../../shared/protocol';

/** What the board page needs; URIs are webview URIs in VS Code and plain URLs in the browser tests. */
export interface BoardPage {
  scriptUri: string;
  codiconUri: string;
  /** The origin scripts, styles and fonts may come from (the webview's `cspSource`). */
  cspSource: string;
  nonce: string;
  initial: InitialState;
}

export function newNonce(): string {
  return randomBytes(18).toString('base64url');
}

/** The initial state as JSON that cannot close its `<script>` element, whatever the logs contain. */
export function embedJson(value: unknown): string {
  return JSON.stringify(value).replace(/</g, '\\u003c').replace(/\u2028/g, '\\u2028').replace(/\u2029/g, '\\u2029');
}

const attr = (text: string) => text.replace(/&/g, '&amp;').replace(/"/g, '&quot;').replace(/</g, '&lt;');

/** The board's HTML: CSP `default-src 'none'`, one nonce'd script, styles and fonts only from the resource root. */
export function boardHtml(page: BoardPage): string {
  const csp = [`default-src 'none'`, `script-src 'nonce-${page.nonce}'`, `style-src ${page.cspSource}`, `font-src ${page.cspSource}`].join('; ');
  return `<!DOCTYPE html>
<html lang="en">
<head>
<meta charset="UTF-8">
<meta http-equiv="Content-Security-Policy" content="${attr(csp)}">
<meta name="viewport" content="width=device-width, initial-scale=1.0">
<link id="vscode-codicon-stylesheet" rel="stylesheet" href="${attr(page.codiconUri)}">
<title>Rollout replay</title>
</head>
<body>
<div id="root"></div>
<script type="application/json" id="mtrl-initial">${embedJson(page.initial)}</script>
<script nonce="${attr(page.nonce)}" src="${attr(page.scriptUri)}"></script>
</body>
</html>`;
}
