import { strict as assert } from 'node:assert';
import { readFileSync } from 'node:fs';
import path from 'node:path';
import { agentAdviceForLogs, agentAdviceForSource, rewardPreviewGames } from '../../../../src/core/environments/registry';

const fixture = (name: string) => readFileSync(path.join(__dirname, '../../../fixtures/signal', name), 'utf8');

describe('environment registry: the hooks generic code asks for', () => {
  it("gives the smoke test and the lint Wordle's -1.5 for a Wordle agent, nothing for the refund desk", () => {
    assert.equal(agentAdviceForSource(fixture('wordle_agent.py'))?.noPlayReward, -1.5);
    assert.equal(agentAdviceForSource(fixture('refund_agent.py')), undefined);
    const wordleLogs = [
      'agent loop ended early on attempt 1/2 (BadRequestError: Error code: 400 - Could not find job); 0 guess(es) played',
    ];
    assert.match(agentAdviceForLogs(wordleLogs)?.noPlayCheck ?? '', /^Wordle: reward -1\.5/);
    assert.equal(agentAdviceForLogs(['Failed /complete-rollout: status=400 body={"message":"Could not find job"}']), undefined);
  });

  it("scripts the reward preview's games from a pack: an answer it checks, games for it, a move as marked tiles", () => {
    const preview = rewardPreviewGames();
    assert.ok(preview);
    assert.equal(preview.answerProblem(preview.defaultAnswer), undefined);
    assert.match(preview.answerProblem('cranes') ?? '', /not 5 letters a-z; set mtrl\.reward\.answer/);
    assert.ok(preview.games('crane').games.some((g) => g.kind === 'no-play'));
    assert.deepEqual(
      preview.tiles('react', 'crane')?.map((t) => `${t.letter}${t.mark}`),
      ['RY', 'EY', 'AG', 'CY', 'TX'],
    );
    assert.equal(preview.tiles('two words', 'crane'), undefined);
  });
});
