import assert from 'node:assert/strict';
import type { Browser } from 'playwright-core';
import { enrichTranscript } from '../../../../src/core/environments/registry';
import { referenceReward } from '../../../../src/core/environments/wordle/referenceReward';
import { wordleRewardScenarios } from '../../../../src/core/environments/wordle/rewardScenarios';
import { checkExpectations, parseScenarioFile, scenarioTranscript, toolCallsOf } from '../../../../src/core/reward';
import { REWARD_SCORES_VIEW, type RewardScoresState } from '../../../../src/shared/rewardScores';
import { AppServer, launchChromium, watchProblems } from '../browser';
import { ceiling } from '../../../host/lib/ceiling';

/** The Wordle pack's scenarios scored with the reference design, as the extension hands them to the view. */
function wordleState(): RewardScoresState {
  const offered = wordleRewardScenarios('class WordleGame:\n    def guess(self, w): ...\n    def final_reward(self): ...\n', 'main.py');
  const file = parseScenarioFile(JSON.stringify(offered)).file!;
  const scored = file.scenarios.map((s) => {
    const { reward, outcome } = referenceReward(
      'crane',
      toolCallsOf(s).map((c) => ({ guess: (c.arguments as { guess: string }).guess, source: c.asText ? ('text' as const) : undefined })),
    );
    return { ...s, reward, components: { outcome, shaping: reward - outcome } };
  });
  return {
    source: 'main.py',
    offered: true,
    loading: false,
    reward: 'WordleGame in main.py:63',
    scenarios: scored.map((s) => ({
      name: s.name,
      reward: s.reward,
      components: s.components,
      finished: s.finished,
      transcript: enrichTranscript(scenarioTranscript(s)),
    })),
    expectations: checkExpectations(scored, file.expect, file.invariants).map(({ name, ok, detail }) => ({ name, ok, detail })),
    stubbed: ['strands'],
  };
}

describe('reward scores view in Chromium', () => {
  let server: AppServer;
  let browser: Browser;

  before(async function () {
    this.timeout(ceiling(120_000));
    server = await AppServer.start(REWARD_SCORES_VIEW);
    browser = await launchChromium();
  });

  after(async () => {
    await browser?.close();
    await server?.close();
  });

  async function open(name: string, initial: RewardScoresState) {
    const page = await browser.newPage({ viewport: { width: 900, height: 1200 } });
    const problems = watchProblems(page);
    await page.goto(server.page(name, initial).url);
    return { page, problems };
  }

  it("draws a bar per scenario around zero, each transcript with its pack's renderer (Wordle: tiles), and the expectations", async function () {
    this.timeout(ceiling(60_000));
    const { page, problems } = await open('wordle', wordleState());
    await page.locator('.scenario').first().waitFor();
    assert.equal(await page.locator('.scenario .bar').count(), 11);
    assert.equal(await page.locator('.scenario .bar.negative').count(), 3, 'loss, loss-contradicting and no-play score below zero');
    assert.equal(await page.locator('.scenario[data-scenario="solve@1"] .score').innerText(), '1.56');
    assert.equal(await page.locator('.scenario[data-scenario="solve@1"] .components').innerText(), '= outcome 1.55 + shaping 0.01');
    const solve = page.locator('.scenario[data-scenario="solve@3"]');
    await solve.locator(':scope > summary').click();
    assert.equal(await solve.locator('.tile-row').first().locator('.tile').count(), 5);
    assert.equal((await solve.locator('.tile.mark-G').count()) >= 5, true, 'the solving guess is five greens');
    assert.match(await page.locator('main h2').innerText(), /^Expectations 19\/19 kept$/);
    assert.equal(await page.locator('.expectations li.kept').count(), 19);
    assert.equal(await page.locator('vscode-button.action-save').count(), 1, 'offered scenarios can be saved');
    assert.deepEqual(problems, []);
    await page.close();
  });

  it('says why nothing was scored', async function () {
    this.timeout(ceiling(60_000));
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
