import { strict as assert } from 'node:assert';
import { execFileSync } from 'node:child_process';
import { readFileSync } from 'node:fs';
import path from 'node:path';
import { referenceReward } from '../../../../src/core/environments/wordle/referenceReward';
import { canonicalGames } from '../../../../src/core/environments/wordle/rewardGames';
import { transcriptFromRecord } from '../../../../src/core/transcript/record';
import { wordleView } from '../rollouts/wordleView';
import { LOG_ROLLOUT_FUNCTION, planRolloutLogging } from '../../../../src/core/rollouts/logging';
import { WordleGame } from '../../../../src/core/environments/wordle';
import { ceiling } from '../../../host/lib/ceiling';

const root = path.resolve(__dirname, '../../../..');
const MAIN = path.join(root, 'test/fixtures/demo-workspace/main.py');

/** Imports the demo agent the way the reward harness does (missing packages stubbed) and runs `body` with it as `agent`. */
// eslint-disable-next-line @typescript-eslint/no-explicit-any -- whatever the Python snippet prints as JSON
function withAgent(body: string): any {
  const program = `
import contextlib, io, json, os, sys
sys.path.insert(0, ${JSON.stringify(path.join(root, 'src/python'))})
import reward_harness as harness
harness.USER_DIR = os.path.dirname(${JSON.stringify(MAIN)})
sys.meta_path.append(harness.StubFinder())
agent, error = harness.load_module(${JSON.stringify(MAIN)})
assert error is None, error
out = io.StringIO()
with contextlib.redirect_stdout(out):
${body
  .trim()
  .split('\n')
  .map((l) => `    ${l}`)
  .join('\n')}
print(json.dumps({"result": result, "stdout": out.getvalue().splitlines()}))
`;
  const env = {
    ...process.env,
    PYTHONDONTWRITEBYTECODE: '1',
    AWS_ACCESS_KEY_ID: 'test',
    AWS_SECRET_ACCESS_KEY: 'test',
    AWS_REGION: 'us-east-1',
  };
  return JSON.parse(execFileSync('python3', ['-c', program], { encoding: 'utf8', env, stdio: ['ignore', 'pipe', 'pipe'] }));
}

describe('reward: the demo agent main.py', function () {
  this.timeout(ceiling(20_000));

  it('its WordleGame writes the reference tool feedback text, turn by turn', () => {
    const inputs = ['slate', 'xx', 'slate', 'trace', 'crane'];
    const { result } = withAgent(`
game = agent.WordleGame("crane")
result = [game.guess(w) for w in ${JSON.stringify(inputs)}]`);
    const reference = new WordleGame('crane');
    assert.deepEqual(
      result,
      inputs.map((w) => reference.guess(w).feedback),
    );
  });

  it('its final reward is the reference design on every canonical game', () => {
    const games = canonicalGames('crane').games;
    const { result } = withAgent(`
result = []
for guesses in ${JSON.stringify(games.map((g) => g.guesses))}:
    g = agent.WordleGame("crane")
    for w in guesses:
        g.guess(w)
    result.append(g.final_reward())`);
    games.forEach((g, i) => {
      const expected = referenceReward(
        'crane',
        g.guesses.map((guess) => ({ guess })),
      ).reward;
      assert.ok(Math.abs(result[i] - expected) < 1e-9, `${g.name}: ${result[i]} vs ${expected}`);
    });
  });

  it('log_rollout prints one mtrl_rollout line that the replay board reads back', () => {
    const { stdout } = withAgent(`
g = agent.WordleGame("crane")
g.guess("slate"); g.guess("xx"); g.guess_from_text("crane")
outcome, _ = g.outcome()
agent.log_rollout("r1", g.answer, g.turns, round(g.final_reward(), 4), "arn:aws:sagemaker:us-east-1:111122223333:job/AgentRFT/demo", "wordle_train_0001", round(outcome, 4), round(g.shaping(), 4))
result = None`);
    assert.equal(stdout.length, 1);
    const record = JSON.parse(stdout[0]);
    assert.deepEqual(Object.keys(record), [
      'mtrl_rollout',
      'trajectory_id',
      'job_arn',
      'row_id',
      'answer',
      'turns',
      'solved',
      'reward',
      'outcome',
      'shaping',
    ]);
    assert.deepEqual(record.turns, [
      { guess: 'slate', marks: 'XXGXG', source: 'tool' },
      { guess: 'xx', valid: false, source: 'tool' },
      { guess: 'crane', marks: 'GGGGG', source: 'text' },
    ]);
    assert.equal(record.solved, true);
    const rollout = transcriptFromRecord(record);
    assert.ok(rollout, 'the replay parser rejected the record');
    assert.equal(wordleView(rollout).answer, 'crane');
  });

  it('holds the exact function MTRL: Insert Rollout Logging inserts, already called before the reward return', () => {
    const source = readFileSync(MAIN, 'utf8');
    assert.ok(source.includes(LOG_ROLLOUT_FUNCTION), 'main.py and the inserted log_rollout differ');
    assert.equal(planRolloutLogging(source).kind, 'already');
  });

  it('the handler always returns a reward and logs the rollout once, even when the agent cannot reach the model', () => {
    const { result, stdout } = withAgent(`
payload = {"prompt": json.dumps({"prompt": "Guess the 5-letter word", "answer": "beach", "id": "smoke-test"}), "metadata": {"jobArn": "arn:aws:sagemaker:us-east-1:111122223333:job/AgentRFT/smoke-test", "rolloutId": "r1"}}
result = [agent.handle_rollout(payload), agent.handle_rollout({"prompt": "not json"}), agent.handle_rollout({"prompt": json.dumps({"answer": "toolong"})})]`);
    assert.deepEqual(result, [{ reward: -1.5 }, { reward: -1.5 }, { reward: -1.5 }]);
    assert.equal(stdout.filter((l: string) => l.includes('"mtrl_rollout"')).length, 1);
    assert.equal(JSON.parse(stdout[0]).row_id, 'smoke-test');
  });
});
