import { strict as assert } from 'node:assert';
import { mkdtempSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { main } from '../../../src/cli';
import { refundRows } from '../../../src/emulator/refund/tickets';
import { python } from '../python';
import { ceiling } from '../../host/lib/ceiling';

const agent = path.resolve(__dirname, '../../fixtures/signal/langgraph_agent.py');

async function run(env: Record<string, string | undefined>, ...argv: string[]): Promise<{ code: number; out: string; err: string }> {
  const saved = Object.fromEntries(Object.keys(env).map((k) => [k, process.env[k]]));
  const put = (vars: Record<string, string | undefined>) => {
    for (const [k, v] of Object.entries(vars)) {
      if (v === undefined) delete process.env[k];
      else process.env[k] = v;
    }
  };
  put(env);
  let out = '';
  let err = '';
  try {
    const code = await main(argv, { out: (t) => void (out += t + '\n'), err: (t) => void (err += t + '\n'), stdin: () => [] });
    return { code, out, err };
  } finally {
    put(saved);
  }
}

describe('mtrl signal --local with a LangGraph-style agent (langchain-openai requests: stream without stream_options)', function () {
  this.timeout(ceiling(90_000));
  const dir = mkdtempSync(path.join(tmpdir(), 'mtrl-framework-'));
  const data = path.join(dir, 'tickets.jsonl');
  const store = path.join(dir, 'store');
  writeFileSync(
    data,
    refundRows('train')
      .slice(0, 4)
      .map(({ id, prompt }) => JSON.stringify({ id, prompt }))
      .join('\n') + '\n',
  );
  const local = (...more: string[]) => [
    'signal',
    '--local',
    agent,
    '--data',
    data,
    '--rows',
    '2',
    '--group-size',
    '2',
    '--python',
    python,
    '--store',
    store,
    ...more,
  ];
  const noKeys = { AWS_ACCESS_KEY_ID: undefined, AWS_SECRET_ACCESS_KEY: undefined, AWS_PROFILE: undefined, AGENT_TOOLS: undefined };

  it("a caught missing-credentials error is the first line, in the agent's own words, with the any-key advice; --json counts the rollouts failed", async () => {
    const { code, out } = await run(noKeys, ...local());
    assert.equal(code, 1, out);
    const first = out.split('\n')[0];
    assert.match(first, /^All 4 rollouts: the agent reported `error: Unable to locate credentials`\. A SigV4 bearer token/);
    assert.match(first, /any key works locally/);
    assert.match(first, /Its stderr ended: `rollout failed: NoCredentialsError: Unable to locate credentials`/);
    assert.doesNotMatch(out, /ignores the payload's endpoint|No model call arrived/);
    const json = JSON.parse((await run(noKeys, ...local('--json'))).out) as { failed: number; diagnosis: { kind: string }[] };
    assert.equal(json.failed, 4);
    assert.equal(json.diagnosis[0].kind, 'agent-reported');
  });

  it("with the default policy and the agent's own tools: the refusal on the first line, --policy URL as the fix, and no task advice", async () => {
    const { code, out } = await run({ ...noKeys, AWS_ACCESS_KEY_ID: 'test', AWS_SECRET_ACCESS_KEY: 'test' }, ...local());
    assert.equal(code, 1, out);
    const first = out.split('\n')[0];
    assert.match(first, /^All 4 rollouts: the policy does not play this agent's task\..*pass --policy URL/);
    assert.doesNotMatch(out, /of tasks are never solved|easier tasks|check_policy|close_ticket/);
  });

  it('plays when its tools are the desk the scripted policy knows: streamed calls without stream_options counted, tool results kept, no model call after a return_direct tool', async () => {
    const env = { ...noKeys, AWS_ACCESS_KEY_ID: 'test', AWS_SECRET_ACCESS_KEY: 'test', AGENT_TOOLS: 'desk' };
    const out = path.join(dir, 'played.jsonl');
    const { code, err, out: text } = await run(env, ...local('--transcripts-out', out, '--json'));
    const report = JSON.parse(text) as { failed: number; rollouts: number; tokensPerRollout: { prefill: number; sample: number } };
    assert.equal(report.failed, 0, text + err);
    assert.equal(report.rollouts, 4);
    assert.ok(report.tokensPerRollout.prefill > 0 && report.tokensPerRollout.sample > 0, JSON.stringify(report.tokensPerRollout));
    const { readFileSync } = await import('node:fs');
    const transcripts = readFileSync(out, 'utf8')
      .trim()
      .split('\n')
      .map((l) => JSON.parse(l) as { turns: { toolCalls: { name: string; result?: unknown }[] }[] });
    for (const t of transcripts) {
      const calls = t.turns.flatMap((turn) => turn.toolCalls);
      assert.ok(calls.length > 0);
      const last = t.turns[t.turns.length - 1];
      assert.equal(last.toolCalls.at(-1)?.name, 'close_ticket', 'the return_direct tool ends the rollout: no model turn after it');
    }
    assert.ok([0, 1].includes(code));
  });
});
