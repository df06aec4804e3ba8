import type { InitialState } from '../../shared/protocol';
import { webviewPage } from '../../webview-kit/page';

/** What the board page needs; URIs are webview URIs in VS Code and plain URLs in the browser tests. */
interface BoardPage {
  scriptUri: string;
  codiconUri: string;
  /** The origin scripts, styles and fonts may come from (the webview's `cspSource`). */
  cspSource: string;
  nonce: string;
  initial: InitialState;
}

/** The board's HTML: the kit's page with one nonce'd script, codicons, and the initial state embedded. */
export function boardHtml(page: BoardPage): string {
  return webviewPage({
    title: 'Rollout replay',
    nonce: page.nonce,
    cspSource: page.cspSource,
    scripts: [page.scriptUri],
    codicons: page.codiconUri,
    initial: page.initial,
  });
}
