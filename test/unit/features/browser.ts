// The Chromium side of the webview tests: each view app built from source and served over loopback, and the browser.
import * as esbuild from 'esbuild';
import { createServer, type Server } from 'node:http';
import { mkdtempSync, readFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { chromium, type Browser, type BrowserContext, type Page } from 'playwright-core';
import type { ViewDescriptor } from '../../../src/webview-kit/channel';
import { ceiling } from '../../host/lib/ceiling';
import { appPage, newNonce } from '../../../src/webview-kit/page';

const root = path.resolve(__dirname, '../../..');

/** A view app's bundle built from source (so a test never runs a stale dist/), served with its pages over loopback HTTP. */
export class AppServer {
  private pages = new Map<string, string>();
  private constructor(
    private readonly server: Server,
    readonly origin: string,
    private readonly view: ViewDescriptor,
  ) {}

  static async start(view: ViewDescriptor): Promise<AppServer> {
    const out = mkdtempSync(path.join(tmpdir(), 'mtrl-view-'));
    await esbuild.build({
      entryPoints: [path.join(root, 'webview', view.script.replace(/\.js$/, '.ts'))],
      bundle: true,
      outfile: path.join(out, view.script),
      platform: 'browser',
      format: 'iife',
      target: 'es2022',
      loader: { '.css': 'text' },
      logLevel: 'silent',
    });
    const codicons = path.join(root, 'node_modules/@vscode/codicons/dist');
    const files = new Map([
      [`/${view.script}`, { type: 'text/javascript', body: readFileSync(path.join(out, view.script)) }],
      ['/codicon.css', { type: 'text/css', body: readFileSync(path.join(codicons, 'codicon.css')) }],
      ['/codicon.ttf', { type: 'font/ttf', body: readFileSync(path.join(codicons, 'codicon.ttf')) }],
    ]);
    let app!: AppServer;
    const server = createServer((req, res) => {
      const url = (req.url ?? '').split('?')[0];
      const page = app.pages.get(url);
      const file = files.get(url);
      if (page) res.writeHead(200, { 'content-type': 'text/html; charset=utf-8' }).end(page);
      else if (file) res.writeHead(200, { 'content-type': file.type }).end(file.body);
      else res.writeHead(404).end();
    });
    await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
    const address = server.address() as { port: number };
    app = new AppServer(server, `http://127.0.0.1:${address.port}`, view);
    return app;
  }

  /** Serves the app's page with this initial state at /<name>.html; returns its URL and HTML. */
  page(name: string, initial: unknown): { url: string; html: string } {
    const assets = { scriptUri: `/${this.view.script}`, codiconUri: '/codicon.css', cspSource: this.origin, nonce: newNonce() };
    const html = appPage(this.view, assets, initial);
    this.pages.set(`/${name}.html`, html);
    return { url: `${this.origin}/${name}.html`, html };
  }

  close(): Promise<void> {
    return new Promise((resolve) => this.server.close(() => resolve()));
  }
}

/** The Chromium of this mocha worker, launched by its first view test; undefined outside a parallel run's worker. */
let workerChromium: Promise<Browser> | undefined;

/**
 * Chromium for the view tests, its pages' waits stretched as every other wait in the tests (Playwright's own 30 s was
 * reached once on a loaded CI machine). A parallel run's worker runs many files: they share one Chromium (its launch
 * costs ~2 s of CPU), each file with contexts of its own that its `close()` ends; the worker's exit ends the browser.
 */
export async function launchChromium(): Promise<Browser> {
  if (process.env.MOCHA_WORKER_ID === undefined) return scaledWaits(await startChromium());
  // A browser that crashed under an earlier file is replaced, not handed on.
  const running = await workerChromium?.catch(() => undefined);
  if (running?.isConnected()) return forOneFile(running);
  workerChromium = startChromium();
  return forOneFile(await workerChromium);
}

function startChromium(): Promise<Browser> {
  return chromium.launch({
    executablePath: process.env.MTRL_CHROMIUM ?? '/usr/bin/chromium',
    headless: true,
    args: [
      '--no-sandbox',
      '--disable-gpu',
      '--disable-background-networking',
      '--disable-component-update',
      '--disable-sync',
      '--no-first-run',
    ],
  });
}

/** Every context and page the browser makes waits up to ceiling(30 s) by default instead of a fixed 30 s. */
function scaledWaits(browser: Browser): Browser {
  const newContext = browser.newContext.bind(browser);
  browser.newContext = async (options) => {
    const context = await newContext(options);
    context.setDefaultTimeout(ceiling(30_000));
    return context;
  };
  const newPage = browser.newPage.bind(browser);
  browser.newPage = async (options) => {
    const page = await newPage(options);
    page.setDefaultTimeout(ceiling(30_000));
    return page;
  };
  return browser;
}

/** The shared browser as one file sees it: what it opens has the stretched waits, and its `close()` ends only that. */
function forOneFile(shared: Browser): Browser {
  const contexts = new Set<BrowserContext>();
  const browser = Object.create(shared) as Browser;
  browser.newContext = async (options) => {
    const context = await shared.newContext(options);
    context.setDefaultTimeout(ceiling(30_000));
    contexts.add(context);
    return context;
  };
  browser.newPage = async (options) => (await browser.newContext(options)).newPage();
  browser.close = async () => {
    await Promise.all([...contexts].map((context) => context.close()));
    contexts.clear();
  };
  return browser;
}

/** Collects CSP violations and page errors so tests can assert there were none. */
export function watchProblems(page: Page): string[] {
  const problems: string[] = [];
  page.on('pageerror', (error) => problems.push(`page error: ${error.message}`));
  page.on('console', (message) => {
    if (message.type() === 'error') problems.push(`console error: ${message.text()}`);
  });
  return problems;
}
