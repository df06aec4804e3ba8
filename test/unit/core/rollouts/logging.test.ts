import { strict as assert } from 'node:assert';
import { execFileSync } from 'node:child_process';
import { mkdtempSync, readFileSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { LOG_ROLLOUT_FUNCTION, parseRolloutLine, planRolloutLogging, type LoggingPlan } from '../../../../src/core/rollouts';
import { wordleView } from './wordleView';

const agent = `import json


class WordleGame:
    def __init__(self, answer):
        self.answer = answer
        self.turns = [{"guess": "slate"}, {"guess": "crane", "marks": "GGGGG", "source": "text"}]

    def final_reward(self):
        return 1.45


def entrypoint(f):
    return f


@entrypoint
def handle_rollout(payload):
    game = WordleGame("crane")
    if not payload:
        return {"reward": -1.5}
    return {"reward": game.final_reward()}
`;

function apply(source: string, plan: LoggingPlan): string {
  assert.equal(plan.kind, 'insert');
  if (plan.kind !== 'insert') return source;
  const lines = source.split('\n');
  if (plan.callLine !== undefined) lines.splice(plan.callLine, 0, plan.callText!.replace(/\n$/, ''));
  if (plan.functionLine !== undefined) lines.splice(plan.functionLine, 0, plan.functionText!.replace(/\n$/, ''));
  return lines.join('\n');
}

describe('Insert Rollout Logging plan', () => {
  it('is a dependency-free function of at most 15 lines', () => {
    assert.ok(LOG_ROLLOUT_FUNCTION.trimEnd().split('\n').length <= 15);
    assert.doesNotMatch(LOG_ROLLOUT_FUNCTION, /^import (?!json)|^from /m);
  });

  it('adds the function before the decorated handler and one call before the last reward return; python3 then logs a record the parser reads', () => {
    const plan = planRolloutLogging(agent);
    assert.equal(plan.kind === 'insert' && plan.functionLine, agent.split('\n').indexOf('@entrypoint'));
    const edited = apply(agent, plan);
    const dir = mkdtempSync(path.join(tmpdir(), 'mtrl-logging-'));
    writeFileSync(path.join(dir, 'main.py'), edited);
    const script =
      'import main\nprint(main.handle_rollout({"metadata": {"rolloutId": "r7", "jobArn": "arn:j"}}))\nprint(main.handle_rollout("odd payload"))';
    const out = execFileSync('python3', ['-c', script], { cwd: dir, encoding: 'utf8' }).trim().split('\n');
    const first = parseRolloutLine(out[0])[0];
    assert.equal(first?.kind, 'transcript');
    if (first?.kind === 'transcript') {
      const rollout = wordleView(first.transcript);
      assert.equal(rollout.trajectory_id, 'r7');
      assert.equal(rollout.job_arn, 'arn:j');
      assert.deepEqual(
        rollout.turns.map((t) => [t.guess, t.marks, t.source]),
        [
          ['slate', 'XXGXG', 'tool'],
          ['crane', 'GGGGG', 'text'],
        ],
      );
      assert.equal(rollout.reward, 1.45);
    }
    assert.equal(out[1], "{'reward': 1.45}", 'the reward is still returned');
    assert.equal(out[3], "{'reward': 1.45}", 'an odd payload still gets its reward');
  });

  it('is idempotent', () => {
    const once = apply(agent, planRolloutLogging(agent));
    assert.equal(planRolloutLogging(once).kind, 'already');
  });

  it('refuses politely when there is no reward return', () => {
    const plan = planRolloutLogging('def handler(payload):\n    return {"score": 1}\n');
    assert.equal(plan.kind, 'refused');
    assert.match(plan.kind === 'refused' ? plan.message : '', /no `return \{"reward": …\}` line/);
  });

  it('is the same text as the demo agent’s log_rollout', () => {
    const demo = readFileSync(path.resolve(__dirname, '../../../fixtures/demo-workspace/main.py'), 'utf8');
    assert.ok(demo.includes(LOG_ROLLOUT_FUNCTION), 'test/fixtures/demo-workspace/main.py holds the exact function');
  });
});
