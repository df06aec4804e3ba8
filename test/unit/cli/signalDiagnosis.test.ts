import { strict as assert } from 'node:assert';
import { mkdtempSync, readFileSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { main } from '../../../src/cli';
import type { Transcript } from '../../../src/core/transcript/model';
import { expectedOutcome, refundRows, ticketOf } from '../../../src/emulator/refund/tickets';

async function mtrl(...args: string[]) {
  const out: string[] = [];
  const err: string[] = [];
  const code = await main(args, { out: (t) => out.push(t), err: (t) => err.push(t), stdin: () => [] });
  return { code, out: out.join('\n'), err: err.join('\n') };
}

const root = path.resolve(__dirname, '../../..');
const fixtures = path.join(root, 'test/fixtures/signal');
// The real support run's tickets, verbatim, as the CSV the job was given.
const tickets = path.join(root, 'test/fixtures/real-run/data/training_prompts.csv');
const temp = () => mkdtempSync(path.join(tmpdir(), 'mtrl-diagnosis-'));

describe('mtrl signal --local: the report names the real cause on its first line', function () {
  this.timeout(120_000);

  it("the support agent: its own allow-list error and the missing packages on the first line, no reward advice (the run's CSV read)", async () => {
    const agent = path.join(fixtures, 'support_agent.py');
    const run = ['signal', '--local', agent, '--data', tickets, '--rows', '2', '--group-size', '2', '--store', temp()];
    const { code, out, err } = await mtrl(...run);
    assert.equal(code, 1, err);
    const [first] = out.split('\n');
    const line =
      readFileSync(agent, 'utf8')
        .split('\n')
        .findIndex((l) => l.includes('raise ValueError')) + 1;
    assert.match(
      first,
      new RegExp(
        `^All 4 rollouts failed: the agent raised support_agent\\.py:${line}: ValueError: Refusing an untrusted SageMaker Job Runtime endpoint\\.`,
      ),
    );
    assert.match(first, /bedrock_agentcore, sagemaker, strands are not installed for python3/);
    assert.doesNotMatch(out, /^- /m, 'no advice on tasks or reward while the rollouts fail');
    assert.doesNotMatch(out, /easier tasks|ignores the payload's endpoint/);
  });

  it('a support conversation with --policy emulator is reported as a policy refusal, not "add easier tasks"', async () => {
    const agent = path.join(fixtures, 'support_plain_agent.py');
    const run = ['signal', '--local', agent, '--data', tickets, '--rows', '2', '--group-size', '2', '--policy', 'emulator'];
    const { code, out, err } = await mtrl(...run, '--store', temp());
    assert.equal(code, 1, err);
    assert.match(
      out.split('\n')[0],
      /^All 4 rollouts: the policy does not play this agent's task\. .*plays only its own Wordle and refund-desk tasks.*--policy URL/,
    );
    assert.doesNotMatch(out, /easier tasks|give partial credit/);
  });

  it('a 1-if-resolved what-if over local rollouts warns that the last tool results were not seen, counting them', async () => {
    const dir = temp();
    // The refund desk's tickets with their hidden facts for the fixture agent's desk; the model sees only the prompt.
    const rows = refundRows('train')
      .slice(0, 4)
      .map(({ id, prompt }) => {
        const ticket = ticketOf(prompt);
        const want = expectedOutcome(ticket);
        const row = { id, prompt, order_id: ticket.orderId, price: ticket.price, reason: ticket.reason };
        return { ...row, expected_amount: want.amount, expected_resolution: want.resolution };
      });
    const data = path.join(dir, 'tickets.jsonl');
    writeFileSync(data, rows.map((r) => JSON.stringify(r)).join('\n'));
    const kept = path.join(dir, 'local.jsonl');
    const agent = path.join(fixtures, 'refund_agent.py');
    const played = await mtrl(
      'signal',
      '--local',
      agent,
      '--data',
      data,
      '--rows',
      '4',
      '--group-size',
      '2',
      '--store',
      dir,
      '--transcripts-out',
      kept,
    );
    assert.notEqual(played.code, 2, played.err);
    const transcripts = readFileSync(kept, 'utf8')
      .trim()
      .split('\n')
      .map((l) => JSON.parse(l) as Transcript);
    const calls = transcripts.flatMap((t) => t.turns.flatMap((turn) => turn.toolCalls)).filter((c) => c.resultNotSeen).length;
    const holding = transcripts.filter((t) => t.turns.some((turn) => turn.toolCalls.some((c) => c.resultNotSeen))).length;
    assert.ok(calls > 0, 'the agent ends after its closing tool call');
    const warning = new RegExp(`${calls} tool calls? in ${holding} rollouts? ha(s|ve) no result: .*cannot be trusted`);
    assert.match(played.out, warning, 'the local report warns');

    // The what-if: 1.0 when a tool result says the ticket was closed; the unseen results would silently score 0.
    writeFileSync(
      path.join(dir, 'resolved.py'),
      'def reward(task, transcript):\n' +
        '    results = [c.get("result") for t in transcript["turns"] for c in t["toolCalls"]]\n' +
        '    return 1.0 if any(isinstance(r, dict) and r.get("closed") for r in results) else 0.0\n',
    );
    const scenario = path.join(dir, 'resolved.mtrl-reward.json');
    writeFileSync(
      scenario,
      JSON.stringify({
        reward: { file: 'resolved.py', function: 'reward' },
        task: { prompt: 'Refund order ORD-00001' },
        scenarios: { none: { finished: false, turns: [] } },
        expect: ['none == 0'],
      }),
    );
    const whatIf = await mtrl('reward', scenario, '--rescore', kept);
    assert.equal(whatIf.code, 0, whatIf.err);
    assert.match(whatIf.out, warning);
    const signal = await mtrl('signal', kept);
    assert.match(signal.out, warning);
  });
});

describe('--data that matches no rollout says so; ungroupable rollouts say pass --data', () => {
  const rollout = (i: number, prompt: string): Transcript => ({
    id: `r${i}`,
    groupKey: `r${i}`,
    reward: i % 2,
    status: 'completed',
    source: 'trace',
    task: { prompt },
    turns: [],
  });

  it('"0 of N rollouts matched a row of FILE" on stderr for signal, rollouts and the what-if; "pass --data" instead of "of 0 tasks"', async () => {
    const dir = temp();
    // Each first message carries per-rollout text, as the support agent's does: no two share a task without the data.
    const file = path.join(dir, 'run.jsonl');
    const prompts = ['Reset my router', 'Refund my order'];
    writeFileSync(file, [0, 1, 2, 3].map((i) => JSON.stringify(rollout(i, `${prompts[i % 2]}\n\nsession ${i}`))).join('\n'));
    const without = await mtrl('signal', file);
    assert.match(without.out, /^4 rollouts from .*run\.jsonl, none grouped with another by task/);
    assert.doesNotMatch(without.out, /of 0 tasks/);
    assert.match(without.out, /pass --data DATASET to match each to its row/);

    const other = path.join(dir, 'other.csv');
    writeFileSync(other, 'prompt\n"Something else entirely"\n');
    // The what-if reads its rollouts the same way: a constant reward is enough to see it say so.
    writeFileSync(path.join(dir, 'one.py'), 'def reward(task, transcript):\n    return 1.0\n');
    const scenario = path.join(dir, 'one.mtrl-reward.json');
    const scenarios = { none: { finished: false, turns: [] } };
    writeFileSync(
      scenario,
      JSON.stringify({ reward: { file: 'one.py', function: 'reward' }, task: { prompt: 'p' }, scenarios, expect: ['none == 1'] }),
    );
    for (const [command, ...args] of [['signal'], ['rollouts'], ['reward', scenario, '--rescore']]) {
      const unmatched = await mtrl(command, ...args, file, '--data', other);
      assert.match(unmatched.err, new RegExp(`^mtrl ${command}: 0 of 4 rollouts matched a row of ${other.replace(/[.]/g, '\\.')}; `, 'm'));
    }

    const right = path.join(dir, 'rows.csv');
    writeFileSync(right, `prompt\n${prompts.join('\n')}\n`);
    const matched = await mtrl('signal', file, '--data', right);
    assert.doesNotMatch(matched.err, /matched a row/);
    assert.match(matched.out, /^4 rollouts of 2 tasks \(2 per task\)/);
  });
});
