import { createHash, randomBytes } from 'node:crypto';
import { INITIAL_STATE_ID, type ViewDescriptor } from './channel';
import { reportTitle, type ReportModel } from '../core/report/model';

// The extension's half of the kit: one HTML page shape for every view (see channel.ts for how a view uses the kit).

/** A fresh nonce per page render: the CSP admits only scripts and styles carrying it. */
export function newNonce(): string {
  return randomBytes(18).toString('base64url');
}

/** Text or an attribute value in the page shell (its title, the asset URIs): everything else the app draws as text nodes. */
export function escapeHtml(text: string): string {
  return text.replace(/[&<>"']/g, (c) => `&#${c.charCodeAt(0)};`);
}

/** JSON that cannot close its `<script>` element, whatever the data holds (and valid JavaScript, for U+2028/9). */
export function embedJson(value: unknown): string {
  return JSON.stringify(value)
    .replace(/</g, '\\u003c')
    .replace(/\u2028/g, '\\u2028')
    .replace(/\u2029/g, '\\u2029');
}

interface PageOptions {
  title: string;
  nonce: string;
  /** The origin scripts, styles and fonts may come from (the webview's `cspSource`); omit for a page with no files. */
  cspSource?: string;
  /** Script URIs (webview URIs in VS Code), each loaded with the nonce. */
  scripts?: string[];
  /** The URI of `codicon.css` (from `cspSource`), linked with the id `@vscode-elements/elements` looks for. */
  codicons?: string;
  /** Further stylesheet URIs from `cspSource`. */
  stylesheets?: string[];
  /** Embedded as `<script type="application/json" id="mtrl-initial">`: the page reads it at once, no first-message race. */
  initial?: unknown;
}

/** `default-src 'none'`, then only what the page uses: nonce'd scripts, files from `cspSource`. */
export function contentSecurityPolicy(options: PageOptions): string {
  const nonce = `'nonce-${options.nonce}'`;
  const linked = options.cspSource && (options.codicons || options.stylesheets?.length) ? [options.cspSource] : [];
  return [
    `default-src 'none'`,
    ...(options.scripts?.length ? [`script-src ${nonce}`] : []),
    ...(linked.length ? [`style-src ${linked.join(' ')}`] : []),
    ...(linked.length ? [`font-src ${linked.join(' ')}`] : []),
  ].join('; ');
}

export function webviewPage(options: PageOptions): string {
  const nonce = escapeHtml(options.nonce);
  const head = [
    `<meta charset="UTF-8">`,
    `<meta http-equiv="Content-Security-Policy" content="${escapeHtml(contentSecurityPolicy(options))}">`,
    `<meta name="viewport" content="width=device-width, initial-scale=1.0">`,
    ...(options.codicons ? [`<link id="vscode-codicon-stylesheet" rel="stylesheet" href="${escapeHtml(options.codicons)}">`] : []),
    ...(options.stylesheets ?? []).map((href) => `<link rel="stylesheet" href="${escapeHtml(href)}">`),
    `<title>${escapeHtml(options.title)}</title>`,
  ];
  const tail = [
    ...(options.initial === undefined
      ? []
      : [`<script type="application/json" id="${INITIAL_STATE_ID}">${embedJson(options.initial)}</script>`]),
    ...(options.scripts ?? []).map((src) => `<script nonce="${nonce}" src="${escapeHtml(src)}"></script>`),
  ];
  return `<!DOCTYPE html>
<html lang="en">
<head>
${head.join('\n')}
</head>
<body>
<div id="root"></div>
${tail.join('\n')}
</body>
</html>`;
}

/** Where an app page's files are: webview URIs in VS Code, plain URLs in the browser tests and benches. */
export interface AppAssets {
  scriptUri: string;
  codiconUri: string;
  cspSource: string;
  nonce: string;
}

/** A view app's page: its bundle with the nonce, codicons, and the initial state embedded. */
export function appPage(view: ViewDescriptor, assets: AppAssets, initial: unknown): string {
  return webviewPage({
    title: view.pageTitle ?? view.viewType,
    nonce: assets.nonce,
    cspSource: assets.cspSource,
    scripts: [assets.scriptUri],
    codicons: assets.codiconUri,
    initial,
  });
}

/** A script inlined in a page: `</script` or `<!--` in its strings would end or change the element, so `<` is escaped there. */
export function inlineScript(text: string): string {
  return text.replace(/<(\/script|!--)/gi, '\\x3C$1');
}

/**
 * A page that is one file, opened from disk anywhere (the shared report): the app's bundle inlined and admitted by its
 * hash, the state embedded, and a CSP that refuses every request (styles are constructed sheets, which need none).
 */
export function selfContainedPage(options: { title: string; script: string; initial: unknown }): string {
  // The one file has no source map beside it.
  const script = inlineScript(options.script.replace(/\n\/\/# sourceMappingURL=\S*\s*$/, '\n'));
  const hash = createHash('sha256').update(script, 'utf8').digest('base64');
  // Styles and fonts only as data: URLs made in the page (the icon font); nothing is fetched.
  const csp = `default-src 'none'; script-src 'sha256-${hash}'; style-src data:; font-src data:; base-uri 'none'; form-action 'none'`;
  return `<!DOCTYPE html>
<html lang="en">
<head>
<meta charset="UTF-8">
<meta http-equiv="Content-Security-Policy" content="${escapeHtml(csp)}">
<meta name="viewport" content="width=device-width, initial-scale=1.0">
<meta name="color-scheme" content="light dark">
<title>${escapeHtml(options.title)}</title>
</head>
<body>
<div id="root"></div>
<script type="application/json" id="${INITIAL_STATE_ID}">${embedJson(options.initial)}</script>
<script>${script}</script>
</body>
</html>
`;
}

/** The shared report's one file (`mtrl report`, Export Report…): its model embedded, the report page's bundle inlined. */
export function reportPage(model: ReportModel, script: string): string {
  return selfContainedPage({ title: reportTitle(model), script, initial: model });
}
