import { strict as assert } from 'node:assert';
import { mkdtempSync, readFileSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import type { Browser } from 'playwright-core';
import type { JobCurves } from '../../../../src/core/metrics/curves';
import { metricsReport } from '../../../../src/core/report/views';
import { reportPage } from '../../../../src/webview-kit/page';
import { ceiling } from '../../../host/lib/ceiling';
import { buildReportBundle, openOffline, screenshot } from '../../cli/reportBrowser';
import { launchChromium } from '../../features/browser';

const steps = Array.from({ length: 30 }, (_, i) => i + 1);
const curves = (name: string, slope: number): JobCurves => ({
  job: { name, category: 'AgentRFT', region: 'us-east-1' },
  running: false,
  keys: ['rollout/reward/mean', 'actor/entropy'],
  series: {
    'rollout/reward/mean': { steps, values: steps.map((s) => Math.min(1, s * slope)) },
    'actor/entropy': { steps, values: steps.map((s) => 1 / s) },
  },
  findings: [{ kind: 'entropy-collapse', severity: 'warning', step: 20, metric: 'actor/entropy', sentence: 'Entropy fell below 0.1.' }],
});

describe("the report page of a metrics view's export: curves without rollouts", function () {
  this.timeout(ceiling(120_000));
  let browser: Browser;
  before(async () => {
    await buildReportBundle();
    browser = await launchChromium();
  });
  after(() => browser?.close());

  it('draws every overlaid job on the charts, the added chart and the findings, and leaves the board out', async () => {
    const model = metricsReport({
      curves: [curves('lr-1e-5', 0.02), curves('lr-3e-5', 0.04)],
      charts: { window: 5, extraKeys: ['actor/entropy'] },
      madeAt: new Date('2026-12-05T12:00:00Z'),
    });
    const file = path.join(mkdtempSync(path.join(tmpdir(), 'mtrl-report-view-')), 'metrics.html');
    const script = readFileSync(path.resolve(__dirname, '../../../../dist/webview/report.js'), 'utf8');
    writeFileSync(file, reportPage(model, script));
    const { page, requests, problems } = await openOffline(browser, file);
    await page.waitForSelector('.report-curves .uplot');
    assert.equal(await page.locator('.report-counts').innerText(), 'no rollouts');
    assert.equal(await page.locator('.report-board').count(), 0, 'no board without rollouts');
    const titles = await page.locator('.report-curves .u-title').allInnerTexts();
    assert.deepEqual(titles, ['Reward per step', 'actor/entropy']);
    const legend = await page.locator('.report-curves .chart').first().innerText();
    assert.match(legend, /lr-1e-5 · rollout mean \(avg 5\)/, "the view's window");
    assert.match(legend, /lr-3e-5 · rollout mean \(avg 5\)/, 'both jobs overlaid');
    const findings = await page.locator('.report-curves .finding').allInnerTexts();
    assert.deepEqual(findings, [
      'lr-1e-5: entropy-collapse at step 20: Entropy fell below 0.1.',
      'lr-3e-5: entropy-collapse at step 20: Entropy fell below 0.1.',
    ]);
    assert.match(await page.locator('.report-header').innerText(), /overlays 2 jobs/);
    await screenshot(page, 'report-metrics-overlay.png');
    assert.deepEqual(requests, []);
    assert.deepEqual(problems, []);
    await page.context().close();
  });
});
