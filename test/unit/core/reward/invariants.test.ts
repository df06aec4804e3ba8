import { strict as assert } from 'node:assert';
import { checkInvariants, signed, summaryLine, type RewardPreview, type ScoredGame } from '../../../../src/core/reward';
import { canonicalGames } from '../../../../src/core/environments/wordle/rewardGames';

/** The canonical games for 'crane' with the given rewards (by name); unnamed games get `rest`. */
function scoredGames(rewards: Record<string, number>, rest = 0): ScoredGame[] {
  return canonicalGames('crane').games.map((g) => ({ ...g, reward: rewards[g.name] ?? rest }));
}

const FINAL: Record<string, number> = {
  'solve@1': 1.55,
  'solve@2': 1.45,
  'solve@3': 1.35,
  'solve@3-raw-text': 1.34,
  'solve@4': 1.25,
  'solve@5': 1.15,
  'solve@6': 1.05,
  'solve@6-contradicting': 1.02,
  loss: -0.5,
  'loss-contradicting': -0.6,
  'no-play': -1.5,
};

describe('reward: invariants', () => {
  it('all four hold for the final design', () => {
    const results = checkInvariants(scoredGames(FINAL));
    assert.deepEqual(
      results.map((r) => [r.name, r.ok]),
      [
        ['faster-solve-wins', true],
        ['solve-beats-loss', true],
        ['loss-negative', true],
        ['no-play-worst', true],
      ],
    );
  });

  it('names the pair that breaks each one', () => {
    const results = checkInvariants(scoredGames({ ...FINAL, 'solve@1': 0.99, 'solve@3': 1.61, loss: 0.49 }));
    const byName = Object.fromEntries(results.map((r) => [r.name, r]));
    assert.equal(byName['loss-negative'].ok, false);
    assert.equal(byName['loss-negative'].detail, 'loss scores +0.49: a lost game is rewarded');
    assert.equal(byName['faster-solve-wins'].ok, false);
    assert.match(byName['faster-solve-wins'].detail, /^solve@1 scores \+0\.99, which is below solve@3 at \+1\.61/);
    assert.equal(byName['solve-beats-loss'].ok, true);
  });

  it('a solve scoring no more than a loss breaks solve-beats-loss', () => {
    const result = checkInvariants(scoredGames({ ...FINAL, 'solve@6-contradicting': -0.55 }))[1];
    assert.equal(result.ok, false);
    assert.match(result.detail, /^solve@6-contradicting scores −0\.55, not above loss at −0\.50/);
  });

  it('a tie is not a win, and no-play must be strictly lowest', () => {
    const results = checkInvariants(scoredGames({ ...FINAL, 'solve@2': 1.55, 'no-play': -0.6 }));
    assert.match(results[0].detail, /solve@1 scores \+1\.55, which ties with solve@2/);
    assert.equal(results[3].ok, false);
    assert.match(results[3].detail, /no-play scores −0\.60, not below loss-contradicting at −0\.60/);
  });

  it('a zero-scored loss is not negative', () => {
    const result = checkInvariants(scoredGames({ ...FINAL, 'loss-contradicting': 0 }))[2];
    assert.equal(result.ok, false);
    assert.equal(result.detail, 'loss-contradicting scores 0.00: a lost game is not penalised');
  });

  it('formats signed rewards and the CodeLens line', () => {
    assert.deepEqual([signed(0.494), signed(-0.5), signed(-0.001), signed(1.5604)], ['+0.49', '\u22120.50', '0.00', '+1.56']);
    const games = scoredGames(FINAL);
    const preview: RewardPreview = {
      ok: true,
      answer: 'crane',
      convention: 'class',
      target: 'WordleGame',
      line: 1,
      stubbed: [],
      games,
      invariants: checkInvariants(games),
      notes: [],
    };
    assert.equal(summaryLine(preview), 'solve@1 1.55 · solve@3 1.35 · solve@6 1.05 · loss −0.50 · no-play −1.50 · ✓ 4/4');
    const broken = scoredGames({ ...FINAL, loss: 0.49 });
    assert.match(summaryLine({ ...preview, games: broken, invariants: checkInvariants(broken) }), /loss 0\.49 · no-play −1\.50 · ✗ 3\/4$/);
  });
});
