import { strict as assert } from 'node:assert';
import { mkdirSync } from 'node:fs';
import path from 'node:path';
import type { Browser } from 'playwright-core';
import { checkInvariants, type RewardPreview } from '../../../../src/core/reward';
import { canonicalGames } from '../../../../src/core/environments/wordle/rewardGames';
import { previewHtml } from '../../../../src/features/reward/previewHtml';
import { launchChromium } from '../replay/browser';

const shots = path.resolve(__dirname, '../../../../test-results');

function preview(): RewardPreview {
  const games = canonicalGames('crane').games.map((g) => ({
    ...g,
    reward: g.name === 'loss' ? -0.5 : g.name.startsWith('solve') ? 1.3 : -1.5,
  }));
  return {
    ok: true,
    answer: 'crane',
    convention: 'class',
    target: 'WordleGame',
    line: 12,
    stubbed: [],
    games,
    invariants: checkInvariants(games),
    notes: [],
  };
}

describe('reward: preview page in Chromium', function () {
  this.timeout(60_000);
  let browser: Browser;
  before(async () => {
    browser = await launchChromium();
    mkdirSync(shots, { recursive: true });
  });
  after(() => browser?.close());

  for (const width of [900, 450]) {
    it(`draws every bar inside a ${width}-px editor`, async () => {
      const page = await browser.newPage({ viewport: { width, height: 900 } });
      await page.setContent(previewHtml(preview(), 'main.py', 'N'));
      const boxes = await page.$$eval('svg.drawn', (els) =>
        els.map((e) => e.getBoundingClientRect()).map((b) => ({ left: b.left, right: b.right, width: b.width })),
      );
      assert.equal(boxes.length, 11);
      for (const box of boxes)
        assert.ok(box.width >= 40 && box.right <= width, `a drawn bar's box ${JSON.stringify(box)} leaves the ${width}-px page`);
      assert.ok(await page.evaluate(() => document.documentElement.scrollWidth <= window.innerWidth), 'no horizontal scroll');
      await page.screenshot({ path: path.join(shots, `reward-preview-${width}.png`), fullPage: true });
      await page.close();
    });
  }
});
