import type { MetricsState } from '../../shared/metrics';
import { webviewPage } from '../../webview-kit/page';

interface MetricsPage {
  scriptUri: string;
  codiconUri: string;
  cspSource: string;
  nonce: string;
  initial: MetricsState;
}

/** The metrics view's HTML: the kit's page with one nonce'd script, codicons and the initial state embedded. */
export function metricsHtml(page: MetricsPage): string {
  return webviewPage({
    title: 'Training curves',
    nonce: page.nonce,
    cspSource: page.cspSource,
    scripts: [page.scriptUri],
    codicons: page.codiconUri,
    initial: page.initial,
  });
}
