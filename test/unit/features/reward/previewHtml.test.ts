import { strict as assert } from 'node:assert';
import { checkInvariants, type RewardPreview } from '../../../../src/core/reward';
import { canonicalGames } from '../../../../src/core/environments/wordle/rewardGames';
import { failureHtml, previewHtml } from '../../../../src/features/reward/previewHtml';

function preview(rewards: (name: string) => number): RewardPreview {
  const games = canonicalGames('crane').games.map((g) => ({ ...g, reward: rewards(g.name) }));
  return {
    ok: true,
    answer: 'crane',
    convention: 'class',
    target: 'WordleGame',
    line: 12,
    stubbed: ['strands'],
    games,
    invariants: checkInvariants(games),
    notes: [],
  };
}

describe('reward: preview page', () => {
  const html = previewHtml(
    preview((name) => (name === 'loss' ? 0.49 : name.startsWith('solve') ? 1.2 : -1)),
    'agent/<main>.py',
    'NONCE123',
  );

  it('allows no script and only its own nonce-tagged style', () => {
    assert.match(html, /content="default-src &#39;none&#39;; style-src &#39;nonce-NONCE123&#39;"/);
    assert.match(html, /<style nonce="NONCE123">/);
    assert.doesNotMatch(html, /<script/);
    assert.doesNotMatch(html, / style="/);
  });

  it('escapes what comes from the user', () => {
    assert.match(html, /agent\/&#60;main&#62;\.py/);
    assert.doesNotMatch(html, /<main>/);
    const failure = failureHtml(
      { ok: false, error: 'import', message: 'ValueError: <img src=x onerror=alert(1)>', line: 3 },
      'main.py',
      'N',
    );
    assert.match(failure, /&#60;img src=x onerror=alert\(1\)&#62;/);
    assert.match(failure, /could not be scored at line 3/);
  });

  it('has a row per game with tiles named for screen readers, a bar on the right side of zero, and the failing invariant', () => {
    assert.equal(html.match(/<tr><th scope="row">/g)?.length, 11);
    assert.match(html, /aria-label="C green, R green, A green, N green, E green"/);
    assert.match(html, /<span class="invalid" title="not a valid guess">two words<\/span>/);
    assert.match(html, /class="bar pos"/);
    assert.match(html, /class="bar neg"/);
    assert.match(html, /<li class="fail">.*loss-negative<\/code>: loss scores \+0\.49: a lost game is rewarded/);
    assert.match(html, /replaced by stubs: <code>strands<\/code>/);
  });
});
