import assert from 'node:assert/strict';
import { mkdirSync } from 'node:fs';
import path from 'node:path';
import type { Browser, Page } from 'playwright-core';
import { signalReport } from '../../../../src/core/signal/report';
import type { Transcript } from '../../../../src/core/transcript/model';
import { SIGNAL_VIEW, type InitialSignal, type SignalState } from '../../../../src/shared/signal';
import { AppServer, launchChromium, watchProblems } from '../browser';
import { ceiling } from '../../../host/lib/ceiling';

const root = path.resolve(__dirname, '../../../..');
const THEMES = {
  dark: 'body{background:#1e1e1e;--vscode-foreground:#cccccc;--vscode-charts-blue:#3794ff;--vscode-charts-orange:#d18616;--vscode-charts-green:#89d185;--vscode-charts-yellow:#cca700;--vscode-editorWidget-border:#454545;--vscode-descriptionForeground:#9d9d9d;--vscode-errorForeground:#f48771}',
  light:
    'body{background:#ffffff;--vscode-foreground:#3b3b3b;--vscode-charts-blue:#1a85ff;--vscode-charts-orange:#c27d1a;--vscode-charts-green:#388a34;--vscode-charts-yellow:#bf8803;--vscode-editorWidget-border:#c8c8c8;--vscode-descriptionForeground:#717171;--vscode-errorForeground:#a1260d}',
};

/** A support agent's partial-credit rollouts, 4 per task: 7 tasks always solved, 3 never, 7 split. */
function supportRollouts(): Transcript[] {
  const tasks: Record<string, number[]> = {};
  for (let i = 0; i < 7; i++) tasks[`refund-easy-${i}`] = [1, 1, 1, 1];
  for (let i = 0; i < 3; i++) tasks[`outage-hard-${i}`] = [0, 0, 0, 0];
  for (let i = 0; i < 7; i++) tasks[`billing-${i}`] = [1, 0.25, 0.5, 0];
  return Object.entries(tasks).flatMap(([task, rewards]) =>
    rewards.map((reward, i) => ({
      id: `${task}-${i}`,
      groupKey: task,
      reward,
      status: 'completed' as const,
      source: 'trace' as const,
      task: { prompt: task },
      turns: [],
    })),
  );
}

type Sent = { type: string; kind?: string; headline?: string; rewardBars?: number; difficultyBars?: number };
const sent = (page: Page) => page.evaluate(() => (window as unknown as { mtrlSent: Sent[] }).mtrlSent);

describe('learning-signal view in Chromium', () => {
  let server: AppServer;
  let browser: Browser;

  before(async function () {
    this.timeout(ceiling(120_000));
    server = await AppServer.start(SIGNAL_VIEW);
    browser = await launchChromium();
  });

  after(async () => {
    await browser?.close();
    await server?.close();
  });

  /** Opens a page of the view with this initial state and theme, at this width; resolves once the page reported drawing. */
  async function open(name: string, initial: InitialSignal, theme: keyof typeof THEMES, width: number) {
    const page = await browser.newPage({ viewport: { width, height: 1200 } });
    const problems = watchProblems(page);
    await page.addInitScript((style) => {
      (window as unknown as { mtrlSent: unknown[] }).mtrlSent = [];
      const sheet = new CSSStyleSheet();
      sheet.replaceSync(style);
      document.adoptedStyleSheets = [...document.adoptedStyleSheets, sheet];
    }, THEMES[theme]);
    await page.goto(server.page(name, initial).url);
    if (!initial.loading)
      await page.waitForFunction(() => (window as unknown as { mtrlSent: Sent[] }).mtrlSent.some((m) => m.type === 'drawn'));
    return { page, problems };
  }

  const fileSource = { kind: 'file' as const, uri: 'file:///work/support-rollouts.jsonl', label: 'support-rollouts.jsonl' };

  it('draws the report at half a window in the light and dark theme: bars, the zero-advantage meaning, advice; nothing overflows', async function () {
    this.timeout(ceiling(120_000));
    const initial: InitialSignal = {
      loading: false,
      source: fileSource,
      shown: {
        title: 'support-rollouts.jsonl',
        status: 'done',
        at: '2026-12-01T23:00:00Z',
        report: signalReport(supportRollouts()),
        hasRollouts: true,
      },
    };
    const colours: string[] = [];
    for (const theme of ['light', 'dark'] as const) {
      const { page, problems } = await open(`report-${theme}`, initial, theme, 560);
      const drawn = (await sent(page)).find((m) => m.type === 'drawn')!;
      // 10 of 17 groups are flat: 7 always solved (41 %), 3 never solved.
      assert.equal(drawn.headline, '59 % of tasks have zero advantage (10 of 17 groups)');
      assert.equal(drawn.difficultyBars, 5);
      assert.equal(await page.locator('.difficulty .slot').count(), 5);
      assert.equal(await page.locator('.rewards .slot').count(), drawn.rewardBars);
      assert.equal(await page.locator('.verdict.bad').count(), 1);
      assert.match(await page.locator('.verdict').innerText(), /41 % of tasks are solved by every rollout: they teach nothing\./);
      assert.match(await page.locator('.recommendations').innerText(), /Drop them or make them harder/);
      // A screen reader hears every bar of the chart.
      const label = await page.locator('.difficulty .bars').getAttribute('aria-label');
      assert.match(label ?? '', /7 tasks solved by 4 of 4 rollouts/);
      const layout = await page.evaluate(() => {
        const width = document.documentElement.clientWidth;
        const outside = [...document.querySelectorAll('main *, header *')].filter((el) => {
          const r = el.getBoundingClientRect();
          return r.width > 0 && (r.right > width + 1 || r.left < -1);
        });
        return { scrolls: document.documentElement.scrollWidth > width + 1, outside: outside.map((el) => el.className || el.tagName) };
      });
      assert.equal(layout.scrolls, false, 'the view scrolls sideways at half a window');
      assert.deepEqual(layout.outside, []);
      colours.push(
        await page
          .locator('.difficulty .bar')
          .first()
          .evaluate((el) => getComputedStyle(el).backgroundColor),
      );
      mkdirSync(path.join(root, 'test-results'), { recursive: true });
      await page.screenshot({ path: path.join(root, 'test-results', `signal-${theme}-560px.png`), fullPage: true });
      assert.deepEqual(problems, []);
      await page.close();
    }
    assert.notEqual(colours[0], colours[1], 'the bars took the same colour in both themes');
  });

  it('is used from the keyboard: Tab reaches Open Rollouts, Enter and Space press it, and each action reaches the extension', async function () {
    this.timeout(ceiling(60_000));
    const initial: InitialSignal = {
      loading: false,
      source: fileSource,
      shown: { title: 'support-rollouts.jsonl', status: 'done', report: signalReport(supportRollouts()), hasRollouts: true },
    };
    const { page, problems } = await open('keyboard', initial, 'dark', 900);
    await page.keyboard.press('Tab');
    await page.waitForFunction(() => document.activeElement?.classList.contains('action-openRollouts'));
    await page.keyboard.press('Enter');
    await page.keyboard.press('Tab');
    await page.waitForFunction(() => document.activeElement?.classList.contains('action-tryReward'));
    await page.keyboard.press(' ');
    await page.keyboard.press('Tab');
    await page.waitForFunction(() => document.activeElement?.classList.contains('action-refresh'));
    await page.keyboard.press('Enter');
    await page.waitForFunction(() => (window as unknown as { mtrlSent: Sent[] }).mtrlSent.some((m) => m.type === 'refresh'));
    assert.deepEqual(
      (await sent(page)).filter((m) => m.type !== 'drawn').map((m) => m.type),
      ['openRollouts', 'tryReward', 'refresh'],
    );
    assert.deepEqual(problems, []);
    await page.close();
  });

  it('loading, then a failure from the extension: a progress ring, then the sentence as an alert with the rollout actions off', async function () {
    this.timeout(ceiling(60_000));
    const initial: InitialSignal = {
      loading: true,
      source: fileSource,
      shown: { title: 'evaluation job x', status: 'running', hasRollouts: false },
    };
    const { page, problems } = await open('failed', initial, 'light', 600);
    await page.locator('vscode-progress-ring').waitFor();
    assert.equal((await page.locator('[role=status]').innerText()).trim(), 'Reading the rollouts…');
    const failed: SignalState = {
      loading: false,
      shown: {
        title: 'evaluation job x',
        status: 'failed',
        error: 'Reading the rollouts of x: the job has no MLflow traces.',
        hasRollouts: false,
      },
    };
    await page.evaluate((state) => {
      (window as unknown as { mtrlHost: { notify(m: string, p: unknown): void } }).mtrlHost.notify('state', state);
    }, failed);
    await page.waitForFunction(() =>
      (window as unknown as { mtrlSent: Sent[] }).mtrlSent.some((m) => m.type === 'drawn' && m.kind === 'failed'),
    );
    assert.equal(await page.locator('vscode-progress-ring').count(), 0);
    assert.equal((await page.locator('[role=alert]').innerText()).trim(), 'Reading the rollouts of x: the job has no MLflow traces.');
    assert.equal(await page.locator('.action-openRollouts[disabled]').count(), 1);
    assert.equal(await page.locator('.action-tryReward[disabled]').count(), 1);
    assert.equal(await page.locator('.action-refresh[disabled]').count(), 0);
    assert.deepEqual(problems, []);
    await page.close();
  });

  it('rollout text is shown as text: a task named like markup stays text', async function () {
    this.timeout(ceiling(60_000));
    const initial: InitialSignal = {
      loading: false,
      source: fileSource,
      shown: { title: '<img src=x onerror="window.pwned=1">.log', status: 'failed', error: '<b>bold</b> claim', hasRollouts: false },
    };
    const { page, problems } = await open('markup', initial, 'dark', 600);
    assert.equal(await page.locator('img, b').count(), 0);
    assert.match(await page.locator('.source').innerText(), /<img src=x onerror=/);
    assert.equal(await page.evaluate(() => (window as unknown as { pwned?: number }).pwned), undefined);
    assert.deepEqual(problems, []);
    await page.close();
  });
});
