import { strict as assert } from 'node:assert';
import { copyFileSync, mkdtempSync, writeFileSync } from 'node:fs';
import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { main } from '../../../src/cli';
import { rewardRuleProblem } from '../../../src/core/numberRules';
import { outsideText, terminalOutput } from '../../../src/core/text/display';
import { relayChat, type RelayOutcome } from '../../../src/services/signal/policyRelay';
import { ceiling } from '../../host/lib/ceiling';

// Outside text (an agent's tool calls, a task, a rollout id, an exception from Python) printed by the CLI: no escape
// sequence, CR, NUL, C1 or bidi control reaches the terminal raw, and no line break forges a line of ours.

const HOSTILE = '\u001b[31mRED\u001b[0m\u202Eevil\r\nmtrl rollouts: FORGED\u0000\u009b2J';
/** What must never reach a terminal raw: ESC, CR, NUL, the C1 CSI and a bidi override. */
const RAW_CHARS = ['\u001b', '\r', '\u0000', '\u009b', '\u202E'];
/** Whether text holds one of those raw, named for the failure message. */
const raw = (text: string) => RAW_CHARS.filter((c) => text.includes(c)).map((c) => `U+${c.charCodeAt(0).toString(16)}`);

async function cli(...argv: string[]): Promise<{ code: number; out: string; err: string }> {
  let out = '';
  let err = '';
  const code = await main(argv, { out: (t) => void (out += t + '\n'), err: (t) => void (err += t + '\n'), stdin: () => [] });
  return { code, out, err };
}

const noForgedLine = (text: string) => assert.ok(!text.split('\n').some((l) => /^\s*mtrl [a-z]+: FORGED/.test(l)), text);

function hostileLog(): string {
  const dir = mkdtempSync(path.join(tmpdir(), 'mtrl-terminal-'));
  const lines = Array.from({ length: 8 }, (_, i) =>
    JSON.stringify({
      mtrl_rollout: 1,
      trajectory_id: `r${i}`,
      prompt: `task ${Math.floor(i / 4)} ${HOSTILE}`,
      step: 1,
      reward: i % 2,
      turns: [
        {
          text: `hi ${HOSTILE}`,
          tool_calls: [{ name: `tool${HOSTILE}`, arguments: JSON.stringify({ [`action${HOSTILE}`]: `x${HOSTILE}` }), result: HOSTILE }],
        },
      ],
    }),
  );
  const file = path.join(dir, 'run.log');
  writeFileSync(file, lines.join('\n') + '\n');
  return file;
}

describe('hostile text on the terminal', () => {
  it('terminalOutput escapes ESC, CR, NUL, C1 and bidi, keeps lines and tabs, and JSON reads back the same', () => {
    assert.equal(terminalOutput('a\u001b[31mb\r\nc\td\u0000\u009b\u202E'), 'a\\u001b[31mb\\u000d\nc\td\\u0000\\u009b\\u202e');
    const value = { name: HOSTILE, nested: [HOSTILE, '\u0085\u007f\u2066'] };
    const printed = terminalOutput(JSON.stringify(value));
    assert.ok(
      ![...printed].some((c) =>
        c.charCodeAt(0) < 32
          ? c !== '\n' && c !== '\t'
          : (c >= '\u007f' && c <= '\u009f') || (c >= '\u202a' && c <= '\u202e') || (c >= '\u2066' && c <= '\u2069'),
      ),
      printed,
    );
    assert.deepEqual(JSON.parse(printed), value);
  });

  it('outsideText folds CR LF so outside text stays on its line', () => {
    assert.equal(outsideText(`a${HOSTILE}`), 'a\\u001b[31mRED\\u001b[0m\\u202eevil mtrl rollouts: FORGED\\u0000\\u009b2J');
  });

  it('mtrl rollouts prints hostile tool names and arguments neutralised in the action table, and --json keeps them exactly', async () => {
    const file = hostileLog();
    const human = await cli('rollouts', file);
    assert.equal(human.code, 0, human.err);
    assert.match(human.out, /tool\\u001b\[31mRED/);
    assert.deepEqual(raw(human.out + human.err), []);
    noForgedLine(human.out + human.err);
    const json = await cli('rollouts', '--json', file);
    assert.deepEqual(raw(json.out), []);
    assert.ok(json.out.includes('\\u001b[31mRED'), json.out.slice(0, 400));
    assert.ok(JSON.stringify(JSON.parse(json.out)).includes('\u202Eevil'), 'the hostile text reads back from the JSON');
  });

  it('mtrl rollouts --transcripts writes JSON Lines that read back to the hostile task and tool call exactly', async () => {
    const { code, out } = await cli('rollouts', '--transcripts', hostileLog());
    assert.equal(code, 0);
    assert.deepEqual(raw(out), []);
    const first = JSON.parse(out.split('\n')[0]) as { task: { prompt: string }; turns: { toolCalls: { name: string }[] }[] };
    assert.equal(first.task.prompt, `task 0 ${HOSTILE}`);
    assert.equal(first.turns[0].toolCalls[0].name, `tool${HOSTILE}`);
  });

  it("mtrl signal prints a hostile log's report with nothing raw and no forged line", async () => {
    const { code, out, err } = await cli('signal', hostileLog());
    assert.equal(code, 0, err);
    assert.deepEqual(raw(out + err), []);
    noForgedLine(out + err);
  });

  it('a rollout id with a line break stays on the reward rule sentence', () => {
    const problem = rewardRuleProblem([{ id: `r1\nmtrl rollouts: FORGED`, reward: 1e308, turns: [] }]) ?? '';
    assert.ok(!problem.includes('\n'), problem);
  });

  it("mtrl reward prints your reward's exception (ANSI, CR LF) on its own line, not as a forged line", async function () {
    this.timeout(ceiling(30_000));
    const dir = mkdtempSync(path.join(tmpdir(), 'mtrl-terminal-'));
    const file = path.join(dir, 'forge.py');
    writeFileSync(
      file,
      `class WordleGame:\n    def __init__(self, answer):\n        pass\n    def guess(self, word):\n        pass\n    def final_reward(self):\n        raise ValueError(${JSON.stringify(`bad\r\nmtrl reward: FORGED all invariants hold\u001b[32m`)})\n`,
    );
    // Each scenario the reward failed on is a finding (exit 1), its exception on that scenario's line.
    const { code, out, err } = await cli('reward', file);
    assert.equal(code, 1, err);
    const printed = `${out}\n${err}`;
    assert.deepEqual(raw(printed), []);
    noForgedLine(printed);
    assert.match(out, /ValueError: bad mtrl reward: FORGED all invariants hold\\u001b\[32m/);
  });

  it("mtrl reward quotes a scenario file's hostile scenario name on the problem's line", async function () {
    this.timeout(ceiling(30_000));
    const dir = mkdtempSync(path.join(tmpdir(), 'mtrl-terminal-'));
    copyFileSync(path.resolve(__dirname, '../../fixtures/workspace/reward-scenarios/math_reward.py'), path.join(dir, 'math_reward.py'));
    const name = `ideal\nmtrl reward: FORGED\u001b[2J`;
    writeFileSync(
      path.join(dir, 'hostile.mtrl-reward.json'),
      JSON.stringify({
        reward: { file: 'math_reward.py', function: 'reward' },
        task: { prompt: 'What is 17 * 3?', answer: '51' },
        scenarios: { [name]: { finished: true, turns: [{ text: '17 * 3 = 51' }] }, silent: { finished: false, turns: [] } },
        expect: [],
      }),
    );
    const { code, err } = await cli('reward', path.join(dir, 'hostile.mtrl-reward.json'));
    assert.equal(code, 2);
    assert.deepEqual(raw(err), []);
    noForgedLine(err);
    assert.match(err, /got 'ideal mtrl reward: FORGED\\u001b\[2J'/);
  });

  it("a policy's error body becomes one line of the rollout's failure", async () => {
    const listen = async (server: Server) => {
      await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
      return `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
    };
    const policy = createServer((_req, res) => {
      res.writeHead(400, { 'content-type': 'application/json' });
      res.end(JSON.stringify({ error: { message: HOSTILE } }));
    });
    let outcome: RelayOutcome | undefined;
    const runtime = createServer((_req, res) => {
      void relayChat({ baseUrl: policyUrl }, { messages: [] }, res, { signal: AbortSignal.timeout(ceiling(5_000)) }).then(
        (o) => (outcome = o),
      );
    });
    const policyUrl = await listen(policy);
    const runtimeUrl = await listen(runtime);
    try {
      await (await fetch(runtimeUrl, { method: 'POST', body: '{}' })).text();
      assert.equal(outcome?.failure, outsideText(HOSTILE));
      assert.deepEqual(raw(outcome?.failure ?? ''), []);
      assert.ok(!outcome?.failure?.includes('\n'));
    } finally {
      policy.close();
      runtime.close();
    }
  });
});
