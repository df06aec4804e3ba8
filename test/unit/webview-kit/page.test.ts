import { strict as assert } from 'node:assert';
import { appPage, contentSecurityPolicy, embedJson, escapeHtml, newNonce, webviewPage } from '../../../src/webview-kit/page';

const hostile = { text: '</script><script>alert(1)</script>', line: 'a\u2028b\u2029c', tag: '<!-- <script>', quote: `"'&` };

describe('webview kit: page', () => {
  it("builds every app's page from its descriptor: its bundle with the nonce, codicons, the initial state, its title", () => {
    const view = { viewType: 'mtrl.metrics', pageTitle: 'Training curves', script: 'metrics.js' };
    const html = appPage(
      view,
      { scriptUri: '/metrics.js', codiconUri: '/codicon.css', cspSource: 'https://x', nonce: 'n0nce' },
      { jobs: [] },
    );
    assert.match(html, /<script nonce="n0nce" src="\/metrics\.js"><\/script>/);
    assert.match(html, /<link id="vscode-codicon-stylesheet" rel="stylesheet" href="\/codicon\.css">/);
    assert.match(html, /<script type="application\/json" id="mtrl-initial">\{"jobs":\[\]\}<\/script>/);
    assert.match(html, /<title>Training curves<\/title>/);
  });

  it('makes a fresh, URL-safe nonce of at least 128 bits every time', () => {
    const nonces = new Set(Array.from({ length: 1000 }, newNonce));
    assert.equal(nonces.size, 1000);
    for (const nonce of nonces) assert.match(nonce, /^[A-Za-z0-9_-]{24,}$/);
  });

  it('embeds JSON that cannot close its script element and reads back equal, as JSON and as JavaScript', () => {
    const json = embedJson(hostile);
    assert.doesNotMatch(json, /<|\u2028|\u2029/);
    assert.deepEqual(JSON.parse(json), hostile);
    assert.deepEqual(new Function(`return ${json};`)(), hostile);
  });

  it('escapes text and attribute values', () => {
    assert.equal(escapeHtml(`<img src=x onerror="a('&')">`), '&#60;img src=x onerror=&#34;a(&#39;&#38;&#39;)&#34;&#62;');
  });

  it('allows only what the page uses: nonce scripts, files from the webview origin', () => {
    const board = { title: 't', nonce: 'N', cspSource: 'https://res', scripts: ['s.js'], codicons: 'c.css' };
    assert.equal(contentSecurityPolicy(board), `default-src 'none'; script-src 'nonce-N'; style-src https://res; font-src https://res`);
    assert.equal(contentSecurityPolicy({ title: 't', nonce: 'N', cspSource: 'https://res' }), `default-src 'none'`);
  });

  it('builds the page: CSP meta, codicons link, embedded initial state before the nonce script, escaped title', () => {
    const html = webviewPage({
      title: 'Runs <b>',
      nonce: 'N1',
      cspSource: 'https://res',
      scripts: ['/app.js?a=1&b=2'],
      codicons: '/codicon.css',
      initial: hostile,
    });
    assert.match(html, /<meta http-equiv="Content-Security-Policy" content="default-src &#39;none&#39;; script-src &#39;nonce-N1&#39;;/);
    assert.match(html, /<link id="vscode-codicon-stylesheet" rel="stylesheet" href="\/codicon.css">/);
    assert.match(html, /<title>Runs &#60;b&#62;<\/title>/);
    assert.match(
      html,
      /<div id="root"><\/div>\n<script type="application\/json" id="mtrl-initial">\{.*\}<\/script>\n<script nonce="N1" src="\/app.js\?a=1&#38;b=2"><\/script>/,
    );
    assert.equal(html.match(/<\/script>/g)?.length, 2);
    const embedded = /id="mtrl-initial">(.*?)<\/script>/.exec(html)?.[1];
    assert.deepEqual(JSON.parse(embedded ?? ''), hostile);
  });
});
