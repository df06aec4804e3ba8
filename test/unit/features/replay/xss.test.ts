import { strict as assert } from 'node:assert';
import type { Browser } from 'playwright-core';
import { launchChromium, watchProblems } from '../browser';
import { BoardServer } from './browser';
import { ceiling } from '../../../host/lib/ceiling';

const payloads = [
  '<script>window.__xss = 1</script>',
  '<img src=x onerror="window.__xss = 2">',
  '</script><script>window.__xss = 3</script>',
];
const hostileRecord = JSON.stringify({
  mtrl_rollout: 1,
  trajectory_id: payloads[1],
  row_id: payloads[0],
  answer: 'crane',
  turns: payloads.map((guess) => ({ guess, source: 'text' })).concat([{ guess: 'crane', source: 'tool' }]),
  solved: true,
  reward: 1.05,
});
/** The fallback path: feedback text and SDK lines carrying payloads, rebuilt into a rollout. */
const hostileText = [
  `Invalid guess '<img src=x onerror=window.__xss=4>': must be exactly 5 letters (a-z only). This did not use a guess; Guesses Remaining: 6`,
  'Guess 1/6: CRANE — all green. Correct, you solved it!',
  `UpdateReward: trajectory_id=<svg/onload=window.__xss=5> rewards=[1.55]`,
];

describe('replay board against hostile log content', function () {
  this.timeout(ceiling(60_000));
  let server: BoardServer;
  let browser: Browser;
  before(async () => {
    server = await BoardServer.start();
    browser = await launchChromium();
  });
  after(async () => {
    await browser?.close();
    await server?.close();
  });

  for (const [name, lines, shown] of [
    ['record', [hostileRecord], payloads[0]],
    ['feedback', hostileText, '<img src=x onerror=window.__xss=4>'],
  ] as const) {
    it(`shows <script> and <img onerror> from a ${name} as text and runs nothing`, async () => {
      const page = await browser.newPage();
      const problems = watchProblems(page);
      await page.goto(server.page(`xss-${name}`, [...lines]));
      await page.waitForSelector('.group-row[data-group]');
      const groups = await page.locator('.group-row[data-group]').count();
      for (let i = 0; i < groups; i++) {
        await page.locator('.group-row[data-group]').nth(i).click();
        await page.focus('.player');
        for (let step = 0; step < 6; step++) await page.keyboard.press('ArrowRight');
        await page.locator('.rollout-row[data-rollout] .compare-button').first().click();
      }
      await page.waitForSelector('.players.comparing');
      // Stepped on until the payload's turn is drawn (red once on a busy machine: a step pressed before the player was
      // ready was lost); a board that never shows it as text still fails below.
      const drawn = () => page.evaluate((text) => (document.querySelector('#root')?.textContent ?? '').includes(text), shown);
      for (let step = 0; step < 12 && !(await drawn()); step++) {
        await page.focus('.player');
        await page.keyboard.press('ArrowRight');
      }
      assert.ok(((await page.textContent('#root')) ?? '').includes(shown), 'the payload is shown as text');
      assert.equal(await page.evaluate(() => (window as unknown as { __xss?: number }).__xss), undefined, 'no payload ran');
      assert.equal(await page.locator('img').count(), 0, 'no <img> element was created');
      assert.equal(await page.locator('#root script, [onload], [onerror]').count(), 0);
      assert.deepEqual(problems, []);
      await page.close();
    });
  }

  it("shows a tool-calling agent's payloads (task, thinking, tool name, arguments, result, error, metrics keys) as text and runs nothing", async () => {
    const [a, b, c] = payloads;
    const record = (id: string, action: string) =>
      JSON.stringify({
        mtrl_rollout: 1,
        trajectory_id: id,
        prompt: `Task ${a}\nmore ${b}`,
        reward: id === 'x1' ? 1 : 0,
        metrics: { [b]: c, ok: a },
        turns: [{ thinking: c, text: b, tool_calls: [{ name: a, arguments: JSON.stringify({ [b]: action }), result: c, error: b }] }],
      });
    const page = await browser.newPage();
    const problems = watchProblems(page);
    await page.goto(server.page('xss-tools', [record('x1', a), record('x2', c)]));
    await page.waitForSelector('.player .tool-call');
    await page.locator('.player details.thinking summary').click();
    await page.locator('.player details.task summary').click();
    await page.locator('vscode-multi-select.metric-columns').evaluate((el, key) => {
      (el as unknown as { value: string[] }).value = [key, 'ok'];
      el.dispatchEvent(new Event('change'));
    }, b);
    await page.locator('.rollout-row[data-rollout] .compare-button').nth(1).click();
    await page.waitForSelector('.players.comparing .turn.differs');
    const text = (await page.textContent('#root')) ?? '';
    for (const payload of payloads) assert.ok(text.includes(payload), `${payload} is shown as text`);
    assert.equal(await page.evaluate(() => (window as unknown as { __xss?: number }).__xss), undefined, 'no payload ran');
    assert.equal(await page.locator('img').count(), 0, 'no <img> element was created');
    assert.equal(await page.locator('#root script, [onload], [onerror]').count(), 0);
    assert.deepEqual(problems, []);
    await page.close();
  });

  it('keeps the page CSP strict: an injected inline script is refused', async () => {
    const page = await browser.newPage();
    const refused: string[] = [];
    page.on('console', (m) => {
      if (/Content Security Policy/.test(m.text())) refused.push(m.text());
    });
    await page.goto(server.page('csp', [hostileRecord]));
    await page.waitForSelector('.group-row[data-group]');
    await page.evaluate(() => {
      const s = document.createElement('script');
      s.textContent = 'window.__xss = 6';
      document.body.appendChild(s);
    });
    assert.equal(await page.evaluate(() => (window as unknown as { __xss?: number }).__xss), undefined);
    assert.ok(refused.length > 0, 'Chromium reported the CSP refusal');
    await page.close();
  });

  it('shows bidi controls as markers, so a trajectory id, row id or guess cannot spoof what the board shows', async () => {
    const spoof = JSON.stringify({
      mtrl_rollout: 1,
      trajectory_id: 'run\u202Egpj.exe',
      row_id: 'row\u2066x\u2069',
      turns: [{ guess: 'ab\u202Ecd', source: 'text' }],
      solved: false,
      reward: -1.5,
    });
    const page = await browser.newPage();
    const problems = watchProblems(page);
    await page.goto(server.page('bidi', [spoof]));
    await page.waitForSelector('.group-row[data-group]');
    await page.locator('.group-row[data-group]').first().click();
    // The player draws the rollout after the page asks for it: step only once it is there.
    await page.waitForSelector('.player .player-header');
    await page.focus('.player');
    await page.keyboard.press('ArrowRight');
    await page.waitForSelector('.player .turn-list');
    const shown = await page.evaluate(() => {
      const titles = [...document.querySelectorAll('[title], [aria-label]')].map(
        (e) => `${e.getAttribute('title')} ${e.getAttribute('aria-label')}`,
      );
      return [document.querySelector('#root')!.textContent ?? '', ...titles].join('\n');
    });
    assert.ok(!/[\u061C\u200E\u200F\u202A-\u202E\u2066-\u2069]/.test(shown), 'a bidi control reached the page raw');
    assert.equal(await page.textContent('.group-row[data-group] .group-label'), 'row⟨U+2066⟩x⟨U+2069⟩');
    assert.equal((await page.textContent('.rollout-row[data-rollout] .trajectory'))?.trim(), 'run⟨U+202E⟩gpj.exe');
    assert.equal(await page.textContent('.player .turn-list .guess'), 'ab⟨U+202E⟩cd');
    assert.deepEqual(problems, []);
    await page.close();
  });

  it('cuts a long trajectory id in the middle where space is narrow, with the whole id in its tooltip', async () => {
    const id = `${'a'.repeat(20)}-${'b'.repeat(20)}`;
    const record = JSON.stringify({
      mtrl_rollout: 1,
      trajectory_id: id,
      answer: 'crane',
      turns: [{ guess: 'crane' }],
      solved: true,
      reward: 1,
    });
    const page = await browser.newPage();
    await page.goto(server.page('long-id', [record]));
    await page.waitForSelector('.rollout-row[data-rollout] .trajectory');
    const cell = page.locator('.rollout-row[data-rollout] .trajectory span[title]').first();
    assert.equal(await cell.textContent(), `${'a'.repeat(14)}…${'b'.repeat(13)}`);
    assert.equal(await cell.getAttribute('title'), id);
    await page.waitForSelector('.player-header span[title]');
    assert.equal(await page.getAttribute('.player-header span[title]', 'title'), id);
    await page.close();
  });
});
