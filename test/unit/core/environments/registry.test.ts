import { strict as assert } from 'node:assert';
import { readFileSync } from 'node:fs';
import path from 'node:path';
import { agentAdviceForLogs, agentAdviceForSource, packRewardScenarios } from '../../../../src/core/environments/registry';

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

  it('offers a scenario file for a Python reward a pack recognizes (a Wordle class), none for another', () => {
    const source = readFileSync(path.join(__dirname, '../../../fixtures/reward/final_design.py'), 'utf8');
    const offered = packRewardScenarios(source, 'final_design.py');
    assert.deepEqual([offered?.reward.file, offered?.reward.class], ['final_design.py', 'WordleGame']);
    assert.equal(packRewardScenarios('def reward(task, transcript):\n    return 1.0\n', 'reward.py'), undefined);
  });
});
