import assert from 'node:assert/strict';
import * as esbuild from 'esbuild';
import { createServer, type Server } from 'node:http';
import { mkdtempSync, readFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import type { Browser } from 'playwright-core';
import { enrichTranscript } from '../../../../src/core/environments/registry';
import { referenceReward } from '../../../../src/core/environments/wordle/referenceReward';
import { wordleRewardScenarios } from '../../../../src/core/environments/wordle/rewardScenarios';
import { checkExpectations, parseScenarioFile, scenarioTranscript, toolCallsOf } from '../../../../src/core/reward';
import { REWARD_SCORES_VIEW, type RewardScoresState } from '../../../../src/shared/rewardScores';
import { appPage, newNonce } from '../../../../src/webview-kit/page';
import { launchChromium, watchProblems } from '../replay/browser';

const root = path.resolve(__dirname, '../../../..');

/** The Wordle pack's scenarios scored with the reference design, as the extension hands them to the view. */
function wordleState(): RewardScoresState {
  const offered = wordleRewardScenarios('class WordleGame:\n    def guess(self, w): ...\n    def final_reward(self): ...\n', 'main.py');
  const file = parseScenarioFile(JSON.stringify(offered)).file!;
  const scored = file.scenarios.map((s) => ({
    ...s,
    reward: referenceReward(
      'crane',
      toolCallsOf(s).map((c) => ({ guess: (c.arguments as { guess: string }).guess })),
    ).reward,
  }));
  return {
    source: 'main.py',
    offered: true,
    loading: false,
    reward: 'WordleGame in main.py:63',
    scenarios: scored.map((s) => ({
      name: s.name,
      reward: s.reward,
      finished: s.finished,
      transcript: enrichTranscript(scenarioTranscript(s)),
    })),
    expectations: checkExpectations(scored, file.expect, file.invariants).map(({ name, ok, detail }) => ({ name, ok, detail })),
    stubbed: ['strands'],
  };
}

describe('reward scores view in Chromium', () => {
  let server: Server;
  let origin: string;
  let browser: Browser;
  const pages = new Map<string, string>();

  before(async function () {
    this.timeout(120_000);
    const out = mkdtempSync(path.join(tmpdir(), 'mtrl-scores-'));
    await esbuild.build({
      entryPoints: [path.join(root, 'webview/rewardScores.ts')],
      bundle: true,
      outfile: path.join(out, 'rewardScores.js'),
      platform: 'browser',
      format: 'iife',
      target: 'es2022',
      loader: { '.css': 'text' },
      logLevel: 'silent',
    });
    const codicons = path.join(root, 'node_modules/@vscode/codicons/dist');
    const files = new Map([
      ['/rewardScores.js', { type: 'text/javascript', body: readFileSync(path.join(out, 'rewardScores.js')) }],
      ['/codicon.css', { type: 'text/css', body: readFileSync(path.join(codicons, 'codicon.css')) }],
      ['/codicon.ttf', { type: 'font/ttf', body: readFileSync(path.join(codicons, 'codicon.ttf')) }],
    ]);
    server = createServer((req, res) => {
      const url = (req.url ?? '').split('?')[0];
      const page = pages.get(url);
      const file = files.get(url);
      if (page) res.writeHead(200, { 'content-type': 'text/html; charset=utf-8' }).end(page);
      else if (file) res.writeHead(200, { 'content-type': file.type }).end(file.body);
      else res.writeHead(404).end();
    });
    await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
    origin = `http://127.0.0.1:${(server.address() as { port: number }).port}`;
    browser = await launchChromium();
  });

  after(async () => {
    await browser?.close();
    await new Promise((resolve) => server?.close(resolve));
  });

  async function open(name: string, initial: RewardScoresState) {
    pages.set(
      `/${name}.html`,
      appPage(
        REWARD_SCORES_VIEW,
        { scriptUri: '/rewardScores.js', codiconUri: '/codicon.css', cspSource: origin, nonce: newNonce() },
        initial,
      ),
    );
    const page = await browser.newPage({ viewport: { width: 900, height: 1200 } });
    const problems = watchProblems(page);
    await page.goto(`${origin}/${name}.html`);
    return { page, problems };
  }

  it("draws a bar per scenario around zero, each transcript with its pack's renderer (Wordle: tiles), and the expectations", async function () {
    this.timeout(60_000);
    const { page, problems } = await open('wordle', wordleState());
    await page.locator('.scenario').first().waitFor();
    assert.equal(await page.locator('.scenario .bar').count(), 10);
    assert.equal(await page.locator('.scenario .bar.negative').count(), 3, 'loss, loss-contradicting and no-play score below zero');
    assert.equal(await page.locator('.scenario[data-scenario="solve@1"] .score').innerText(), '1.56');
    const solve = page.locator('.scenario[data-scenario="solve@3"]');
    await solve.locator(':scope > summary').click();
    assert.equal(await solve.locator('.tile-row').first().locator('.tile').count(), 5);
    assert.equal((await solve.locator('.tile.mark-G').count()) >= 5, true, 'the solving guess is five greens');
    assert.match(await page.locator('main h2').innerText(), /^Expectations 15\/15 kept$/);
    assert.equal(await page.locator('.expectations li.kept').count(), 15);
    assert.equal(await page.locator('vscode-button.action-save').count(), 1, 'offered scenarios can be saved');
    assert.deepEqual(problems, []);
    await page.close();
  });

  it('says why nothing was scored', async function () {
    this.timeout(60_000);
    const failed: RewardScoresState = {
      ...wordleState(),
      failure: 'main.py:5: SyntaxError: expected ":"',
      scenarios: [],
      expectations: [],
    };
    const { page, problems } = await open('failed', failed);
    await page.locator('.message.failed').waitFor();
    assert.match(await page.locator('.message.failed').innerText(), /SyntaxError/);
    assert.equal(await page.locator('.scenario').count(), 0);
    assert.deepEqual(problems, []);
    await page.close();
  });
});
