import assert from 'node:assert/strict';
import { mkdirSync } from 'node:fs';
import path from 'node:path';
import type { Browser } from 'playwright-core';
import { ManualClock } from '../../../../src/emulator/clock';
import { curvesOf } from '../../../../src/services/metrics/curves';
import { loadJobMetrics } from '../../../../src/services/metrics/load';
import { METRICS_VIEW, type JobCurves, type MetricsState } from '../../../../src/shared/metrics';
import { createTrainingJob, trainingDocument, withEmulator } from '../../emulator/helpers';
import { AppServer, launchChromium, watchProblems } from '../browser';
import { ceiling } from '../../../host/lib/ceiling';

const root = path.resolve(__dirname, '../../../..');
const THEMES = {
  dark: 'body{background:#1e1e1e;--vscode-foreground:#cccccc;--vscode-charts-blue:#3794ff;--vscode-charts-orange:#d18616;--vscode-editorWidget-border:#454545;--vscode-descriptionForeground:#9d9d9d;--vscode-errorForeground:#f48771}',
  light:
    'body{background:#ffffff;--vscode-foreground:#3b3b3b;--vscode-charts-blue:#1a85ff;--vscode-charts-orange:#c27d1a;--vscode-editorWidget-border:#c8c8c8;--vscode-descriptionForeground:#717171;--vscode-errorForeground:#a1260d}',
};

/** Two small training jobs (an LR sweep) through the emulator's MLflow API, as the view's state. */
async function sweepCurves(): Promise<JobCurves[]> {
  const clock = new ManualClock();
  let curves: JobCurves[] = [];
  await withEmulator({ clock, history: false }, async (_emulator, aws) => {
    for (const lr of ['1e-5', '2e-5']) {
      await createTrainingJob(
        aws,
        `sweep-${lr}`,
        trainingDocument({ global_batch_size: '32', group_size: '2', max_steps: '12', val_every: '4', learning_rate: lr }),
      );
    }
    clock.advance(120 * 60_000);
    curves = await Promise.all(
      ['1e-5', '2e-5'].map(async (lr) => {
        const ref = { name: `sweep-${lr}`, category: 'AgentRFT' as const, region: 'us-east-1' };
        return curvesOf(
          ref,
          await loadJobMetrics(
            aws,
            { jobName: ref.name, category: ref.category, region: ref.region },
            {
              keys: [
                'rollout/reward/mean',
                'val/reward/mean',
                'val/reward/pass_at_1',
                'rollout/turns/mean',
                'training/total_tokens',
                'timing_s/step',
              ],
            },
          ),
          {},
          new Date(),
        );
      }),
    );
  });
  return curves;
}

describe('metrics view in Chromium', () => {
  let server: AppServer;
  let browser: Browser;

  before(async function () {
    this.timeout(ceiling(120_000));
    server = await AppServer.start(METRICS_VIEW);
    browser = await launchChromium();
  });

  after(async () => {
    await browser?.close();
    await server?.close();
  });

  it('draws two overlaid jobs with a moving average, updates live, and shows the validation note (light and dark)', async function () {
    this.timeout(ceiling(120_000));
    const jobs = await sweepCurves();
    const state: MetricsState = { jobs, loading: false, window: 10, extraKeys: [] };
    for (const [theme, css] of Object.entries(THEMES)) {
      const page = await browser.newPage({ viewport: { width: 900, height: 1400 } });
      const problems = watchProblems(page);
      await page.addInitScript((style) => {
        (window as unknown as { mtrlSent: unknown[] }).mtrlSent = [];
        // The theme's variables exist before the app draws, as in a VS Code webview.
        const sheet = new CSSStyleSheet();
        sheet.replaceSync(style);
        document.adoptedStyleSheets = [...document.adoptedStyleSheets, sheet];
      }, css);
      await page.goto(server.page(theme, state).url);
      const drawn = async () => {
        await page.waitForFunction(() => (window as unknown as { mtrlSent: { type: string }[] }).mtrlSent.some((m) => m.type === 'drawn'));
        return page.evaluate(() => {
          const sent = (window as unknown as { mtrlSent: { type: string; points?: Record<string, number> }[] }).mtrlSent.filter(
            (m) => m.type === 'drawn',
          );
          return sent[sent.length - 1].points!;
        });
      };
      const points = await drawn();
      // Two jobs × 12 steps × (raw + average); validation at 0, 4, 8, 12 for two keys of two jobs.
      assert.equal(points['Reward per step'], 2 * 12 * 2);
      assert.equal(points['Validation'], 2 * 4 * 2);
      assert.equal(points['Turns per rollout'], 24);
      assert.equal(await page.locator('.uplot').count(), 5);
      assert.match(await page.locator('.note').innerText(), /temperature 0.*37 % but evaluated at 84 %/);
      assert.equal(await page.locator('.job').count(), 2);
      mkdirSync(path.join(root, 'test-results'), { recursive: true });
      await page.screenshot({ path: path.join(root, 'test-results', `metrics-${theme}.png`), fullPage: true });

      // A refresh starts by posting `loading` with the same curves, and may end with nothing new: the charts stay as drawn.
      await page.evaluate(() => document.querySelectorAll('.uplot').forEach((el) => el.setAttribute('data-kept', '')));
      await page.evaluate(() => ((window as unknown as { mtrlSent: unknown[] }).mtrlSent = []));
      await page.evaluate(
        (s) =>
          (window as unknown as { mtrlHost: { notify(m: string, s: unknown): void } }).mtrlHost.notify('state', {
            ...s,
            loading: true,
          }),
        state,
      );
      await page.waitForSelector('vscode-progress-ring');
      await page.evaluate(
        (s) => (window as unknown as { mtrlHost: { notify(m: string, s: unknown): void } }).mtrlHost.notify('state', s),
        state,
      );
      assert.deepEqual(await drawn(), points, 'the same points are reported again');
      assert.equal(await page.locator('.uplot[data-kept]').count(), 5, 'no chart was re-created for unchanged curves');

      // Live refresh: the host posts a state with one more step for the first job.
      const grown = structuredClone(state);
      const reward = grown.jobs[0].series['rollout/reward/mean'];
      reward.steps.push(13);
      reward.values.push(0.5);
      await page.evaluate(() => ((window as unknown as { mtrlSent: unknown[] }).mtrlSent = []));
      await page.evaluate(
        (s) => (window as unknown as { mtrlHost: { notify(m: string, s: unknown): void } }).mtrlHost.notify('state', s),
        grown,
      );
      const after = await drawn();
      assert.equal(after['Reward per step'], 2 * 12 * 2 + 2, 'the new step appears, raw and averaged');
      assert.deepEqual(problems, []);
      await page.close();
    }
  });

  it('shows a job without MLflow config as a sentence with the fix', async () => {
    const state: MetricsState = {
      jobs: [
        {
          job: { name: 'plain', category: 'AgentRFT', region: 'us-east-1' },
          running: false,
          keys: [],
          series: {},
          problem: 'The job plain has no MLflow config, so the service logged no metrics for it.',
        },
      ],
      loading: false,
      window: 10,
      extraKeys: [],
    };
    const page = await browser.newPage();
    await page.addInitScript(() => ((window as unknown as { mtrlSent: unknown[] }).mtrlSent = []));
    await page.goto(server.page('empty', state).url);
    assert.match(await page.locator('.problem').first().innerText(), /no MLflow config/);
    assert.equal(await page.locator('.uplot').count(), 0);
    await page.close();
  });
});
