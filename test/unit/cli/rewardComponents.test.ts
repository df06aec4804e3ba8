import { strict as assert } from 'node:assert';
import { mkdtempSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { main } from '../../../src/cli';
import { ceiling } from '../../host/lib/ceiling';

const fixture = (name: string) => path.resolve(__dirname, '../../fixtures/reward', name);

async function mtrl(...args: string[]) {
  const out: string[] = [];
  const err: string[] = [];
  const code = await main(args, { out: (t) => out.push(t), err: (t) => err.push(t), stdin: () => [] });
  return { code, out: out.join('\n'), err: err.join('\n') };
}

interface JsonScenario {
  name: string;
  reward: number;
  components?: Record<string, number>;
}

describe('reward: components and "the outcome decides the order" (mtrl reward, real python3)', function () {
  this.timeout(ceiling(30_000));

  it('the support reward with unbounded shaping: outcome and shaping per scenario, stalling breaks the order, exit 1', async () => {
    const { code, out } = await mtrl('reward', fixture('support_shaped.mtrl-reward.json'));
    assert.equal(code, 1);
    assert.match(out, /^ {2}stalling +1\.30 = outcome −0\.50 \+ shaping 1\.80 {2}6 turns$/m);
    assert.match(out, /^ {2}escalated +0\.30 = outcome 0\.00 \+ shaping 0\.30/m);
    assert.match(
      out,
      /✗ support_shaped\.py:11 outcome-decides-order: stalling: shaping 1\.80 lifts an outcome of −0\.50 above escalated \(stalling 1\.30, escalated 0\.30 with outcome 0\.00\)/,
    );
    assert.match(out, /also stalling: shaping 1\.80 lifts an outcome of −0\.50 level with ideal/);
    assert.match(out, /✗ support_shaped\.py:11 shaping-is-bounded: escalated: total − outcome 0\.30 is not under 0\.25/);
  });

  it('--json: scenarios[].components rounded to 4 decimals, each breaking pair in failures[] with both scenarios', async () => {
    const { code, out } = await mtrl('reward', fixture('support_shaped.mtrl-reward.json'), '--json');
    assert.equal(code, 1);
    const doc = JSON.parse(out);
    const stalling = doc.scenarios.find((s: JsonScenario) => s.name === 'stalling');
    assert.deepEqual(stalling.components, { outcome: -0.5, shaping: 1.8 });
    const order = doc.failures.filter((f: { expectation?: string }) => f.expectation === 'outcome-decides-order');
    assert.deepEqual(
      order.map((f: { scenarios: string[] }) => f.scenarios),
      [
        ['stalling', 'escalated'],
        ['stalling', 'ideal'],
      ],
    );
    assert.match(order[0].message, /^stalling: shaping 1\.80 lifts/);
    const bounded = doc.failures.filter((f: { expectation?: string }) => f.expectation === 'shaping-is-bounded');
    assert.deepEqual(
      bounded.map((f: { name: string }) => f.name),
      ['escalated', 'stalling'],
    );
  });

  it("the seed's fixed design (outcome + w·clip(shaping)) passes both outcome invariants, exit 0", async () => {
    const { code, out } = await mtrl('reward', fixture('final_design.py'), '--json');
    assert.equal(code, 0);
    const doc = JSON.parse(out);
    const check = (name: string) => doc.expectations.find((e: { name: string }) => e.name === name);
    assert.equal(check('outcome-decides-order').ok, true);
    assert.equal(check('shaping-is-bounded').ok, true);
    const solve1 = doc.scenarios.find((s: JsonScenario) => s.name === 'solve@1');
    assert.equal(solve1.components.outcome, 1.55);
    assert.ok(Math.abs(solve1.components.outcome + solve1.components.shaping - solve1.reward) < 1e-4);
    for (const s of doc.scenarios as JsonScenario[])
      for (const v of Object.values(s.components!)) assert.equal(v, Math.round(v * 1e4) / 1e4, `${s.name} rounded`);
    assert.deepEqual(
      doc.games.find((g: { name: string }) => g.name === 'solve@3-raw-text').guesses,
      doc.games.find((g: { name: string }) => g.name === 'solve@3').guesses,
    );
    const raw = doc.scenarios.find((s: JsonScenario) => s.name === 'solve@3-raw-text').reward;
    const tool = doc.scenarios.find((s: JsonScenario) => s.name === 'solve@3').reward;
    assert.ok(raw < tool && raw > tool - 0.04, `the raw-text rule is a light penalty: ${raw} vs ${tool}`);
  });

  it("the seed's first design (per-guess scores summed) breaks the order the pack knows: a slower solve above a faster one", async () => {
    const { code, out } = await mtrl('reward', fixture('summed_design.py'), '--json');
    assert.equal(code, 1);
    const doc = JSON.parse(out);
    const order = doc.failures.filter((f: { expectation?: string }) => f.expectation === 'outcome-decides-order');
    assert.ok(order.some((f: { scenarios: string[] }) => f.scenarios.join() === 'solve@3,solve@1'));
    assert.ok(order.length >= 15);
    assert.equal(
      doc.expectations.find((e: { name: string }) => e.name === 'shaping-is-bounded'),
      undefined,
      'no outcome returned',
    );
  });

  it("components come from a returned mapping's numbers and its metrics; text, booleans and non-finite values are left out", async () => {
    const dir = mkdtempSync(path.join(tmpdir(), 'mtrl-components-'));
    writeFileSync(
      path.join(dir, 'r.py'),
      [
        'def reward(task, transcript):',
        '    n = len(transcript["turns"])',
        '    return {"reward": 1.0 - 0.1 * n, "note": "x", "flag": True, "metrics": {"outcome": 1.0, "turns": n, "bad": float("nan")}}',
        '',
      ].join('\n'),
    );
    writeFileSync(
      path.join(dir, 'r.mtrl-reward.json'),
      JSON.stringify({
        reward: { file: 'r.py', function: 'reward' },
        task: 'do it',
        scenarios: {
          one: [{ act: {} }],
          text: { turns: [{ text: 'act()', tool_calls: [{ name: 'act', arguments: {}, as_text: true }] }] },
        },
      }),
    );
    const { out } = await mtrl('reward', path.join(dir, 'r.mtrl-reward.json'), '--json');
    const doc = JSON.parse(out);
    assert.deepEqual(doc.scenarios[0].components, { outcome: 1, turns: 1 });
    assert.match((await mtrl('reward', path.join(dir, 'r.mtrl-reward.json'))).out, /one +0\.90 \(outcome 1\.00 · turns 1\.00\)/);
  });

  it('a call marked as text goes to the tool\'s "text" method; without one, to its method', async () => {
    const dir = mkdtempSync(path.join(tmpdir(), 'mtrl-as-text-'));
    writeFileSync(
      path.join(dir, 'env.py'),
      [
        'class Env:',
        '    def __init__(self, row):',
        '        self.reward = 0.0',
        '    def act(self):',
        '        self.reward += 1.0',
        '    def act_from_text(self):',
        '        self.reward += 0.5',
        '',
      ].join('\n'),
    );
    const file = (tools: object) => {
      const name = path.join(dir, `${Object.keys(tools).length}-${JSON.stringify(tools).length}.mtrl-reward.json`);
      writeFileSync(
        name,
        JSON.stringify({
          reward: { file: 'env.py', class: 'Env', tools },
          task: 'do it',
          scenarios: { tool: [{ act: {} }], text: [{ act: {}, as_text: true }] },
          expect: ['tool >= text'],
        }),
      );
      return name;
    };
    const scores = async (tools: object) =>
      Object.fromEntries(
        JSON.parse((await mtrl('reward', file(tools), '--json')).out).scenarios.map((s: JsonScenario) => [s.name, s.reward]),
      );
    assert.deepEqual(await scores({ act: { method: 'act', text: 'act_from_text' } }), { tool: 1, text: 0.5 });
    assert.deepEqual(await scores({ act: { method: 'act' } }), { tool: 1, text: 1 });
  });
});
