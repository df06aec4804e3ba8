// What the report tests share: the page bundle built from source where the CLI looks, the CLI run, and the file opened offline.
import * as esbuild from 'esbuild';
import { mkdirSync } from 'node:fs';
import path from 'node:path';
import { pathToFileURL } from 'node:url';
import type { Browser, Page } from 'playwright-core';
import { main } from '../../../src/cli';
import { watchProblems } from '../features/browser';

const root = path.resolve(__dirname, '../../..');

/** Builds webview/report.ts to dist/webview/report.js (as scripts/build.mjs does), so the CLI never inlines a stale bundle. */
export async function buildReportBundle(): Promise<void> {
  await esbuild.build({
    entryPoints: [path.join(root, 'webview/report.ts')],
    bundle: true,
    outfile: path.join(root, 'dist/webview/report.js'),
    platform: 'browser',
    format: 'iife',
    target: 'es2022',
    loader: { '.css': 'text', '.ttf': 'dataurl' },
    logLevel: 'silent',
  });
}

export async function run(...argv: string[]): Promise<{ code: number; out: string; err: string }> {
  let out = '';
  let err = '';
  const code = await main(argv, { out: (t) => void (out += t + '\n'), err: (t) => void (err += t + '\n'), stdin: () => [] });
  return { code, out, err };
}

/** The page opened from disk with every request but the file's own refused and recorded, and its errors collected. */
export async function openOffline(
  browser: Browser,
  file: string,
  options: { colorScheme?: 'light' | 'dark'; width?: number } = {},
): Promise<{ page: Page; requests: string[]; problems: string[] }> {
  const url = pathToFileURL(file).href;
  const context = await browser.newContext({
    viewport: { width: options.width ?? 1366, height: 800 },
    colorScheme: options.colorScheme ?? 'light',
  });
  const requests: string[] = [];
  await context.route('**', (route) => (route.request().url() === url ? route.continue() : route.abort()));
  const page = await context.newPage();
  page.on('request', (request) => void (request.url() !== url && requests.push(request.url())));
  const problems = watchProblems(page);
  // Refused requests are the finding; the console error Chromium logs for each is counted there, not twice.
  page.on('console', (m) => m.type() === 'error' && /ERR_FAILED|net::/.test(m.text()) && problems.pop());
  await page.goto(url);
  return { page, requests, problems };
}

export async function screenshot(page: Page, name: string): Promise<void> {
  mkdirSync(path.join(root, 'test-results'), { recursive: true });
  await page.screenshot({ path: path.join(root, 'test-results', name), fullPage: true });
}
