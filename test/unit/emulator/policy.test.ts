import { strict as assert } from 'node:assert';
import { execFileSync } from 'node:child_process';
import path from 'node:path';
import { referenceReward } from '../../../src/core/environments/wordle/referenceReward';
import { TRAIN_ANSWERS } from '../../../src/emulator/answers';
import { playRollout, type PlayedRollout } from '../../../src/emulator/policy';
import { Random } from '../../../src/emulator/random';
import { ceiling } from '../../host/lib/ceiling';

const FINAL_DESIGN = path.resolve(__dirname, '../../fixtures/reward/final_design.py');
const round = (x: number) => Math.round(x * 1000) / 1000;

/** The final rewards the Python reference (the design the user deploys) gives the same inputs. */
function pythonRewards(games: PlayedRollout[]): number[] {
  const program = `
import importlib.util, json, sys
spec = importlib.util.spec_from_file_location("final_design", ${JSON.stringify(FINAL_DESIGN)})
design = importlib.util.module_from_spec(spec)
spec.loader.exec_module(design)
out = []
for game in json.load(sys.stdin):
    g = design.WordleGame(game["answer"])
    for turn in game["turns"]:
        (g.guess_from_text if turn["source"] == "text" else g.guess)(turn["guess"])
    out.append(g.final_reward()["reward"])
print(json.dumps(out))
`;
  const input = JSON.stringify(games.map((g) => ({ answer: g.answer, turns: g.turns.map((t) => ({ guess: t.guess, source: t.source })) })));
  return JSON.parse(execFileSync('python3', ['-c', program], { input, encoding: 'utf8' })) as number[];
}

describe('emulator: the scripted policy scores rollouts with the one reference reward', function () {
  this.timeout(ceiling(30_000));

  it('slate, crane for answer crane: shaping 69/150 = 0.460, new information counted once as final_design.py does', () => {
    // SLATE 34 (valid 15, time −1, five new letters 10, A and E: 2 new greens 6 + 2 newly present 4); CRANE 35 (14, 3 new letters 6, information capped at 15).
    const core = referenceReward('crane', [{ guess: 'slate' }, { guess: 'crane' }]);
    assert.equal(core.shaping, 69 / 150);
    assert.equal(round(core.reward), round(1.45 + 0.04 * (69 / 150)));
  });

  it('agrees with core and with the Python reference on 1,200 seeded games of every skill', () => {
    const rng = new Random('policy-agreement');
    const games = Array.from({ length: 1200 }, (_, i) =>
      playRollout(rng.pick(TRAIN_ANSWERS), TRAIN_ANSWERS, (i % 11) / 10, new Random(`game-${i}`)),
    );
    // The sample must reach every branch of the design: solves, losses, no valid guess, repeats, junk, raw text.
    assert.ok(games.some((g) => g.solved) && games.some((g) => !g.solved && g.reward > -1.5) && games.some((g) => g.reward === -1.5));
    assert.ok(games.some((g) => g.turns.some((t) => t.repeated)) && games.some((g) => g.turns.some((t) => t.source === 'text')));
    const python = pythonRewards(games);
    games.forEach((game, i) => {
      const core = referenceReward(game.answer, game.turns);
      assert.deepEqual(
        { reward: game.reward, outcome: game.outcome, shaping: game.shaping, solved: game.solved },
        { reward: round(core.reward), outcome: round(core.outcome), shaping: round(core.shaping), solved: core.solved },
        `game ${i}`,
      );
      assert.equal(
        game.reward,
        round(python[i]),
        `game ${i} (${game.answer}: ${game.turns.map((t) => t.guess).join(', ')}) against final_design.py`,
      );
    });
  });

  it('plays the same games without their feedback text: the metrics play a million for their rewards alone', () => {
    for (let i = 0; i < 400; i++) {
      const answer = TRAIN_ANSWERS[i % TRAIN_ANSWERS.length];
      const told = playRollout(answer, TRAIN_ANSWERS, (i % 11) / 10, new Random(`quiet-${i}`));
      const quiet = playRollout(answer, TRAIN_ANSWERS, (i % 11) / 10, new Random(`quiet-${i}`), { feedback: false });
      assert.ok(
        told.turns.every((t) => t.feedback.length > 0),
        `game ${i} has a text for every turn`,
      );
      assert.ok(
        quiet.turns.every((t) => t.feedback === ''),
        `game ${i} is played without one`,
      );
      const without = (g: PlayedRollout) => ({ ...g, turns: g.turns.map(({ feedback: _, ...turn }) => turn) });
      assert.deepEqual(without(quiet), without(told), `game ${i}`);
    }
  });
});
