import { strict as assert } from 'node:assert';
import { mkdtempSync, readFileSync, writeFileSync } from 'node:fs';
import { connect } from 'node:net';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { signalReport } from '../../../../src/core/signal/report';
import type { Transcript } from '../../../../src/core/transcript/model';
import { hashSeed, Random } from '../../../../src/emulator/random';
import { playRefund } from '../../../../src/emulator/refund/agent';
import { expectedOutcome, refundRows, ticketOf } from '../../../../src/emulator/refund/tickets';
import { startEmulator, type Emulator } from '../../../../src/emulator/server';
import { runLocalSignal, type LocalSignalRun } from '../../../../src/services/signal/localSignal';
import { ceiling } from '../../../host/lib/ceiling';
import { leftRunning } from '../../processes';

const root = path.resolve(__dirname, '../../../..');
const fixtures = path.join(root, 'test/fixtures/signal');
const script = path.join(root, 'src/python/agent_runner.py');
const dataset = readFileSync(path.join(root, 'test/fixtures/datasets/training-data.jsonl'), 'utf8')
  .split('\n')
  .filter(Boolean)
  .map((line, index) => ({ row: JSON.parse(line) as Record<string, unknown>, index }));

/** Agent runners (or this agent file) this test started and did not end. */
function runnersOf(agentFile: string): number[] {
  return leftRunning(script, agentFile);
}

function refused(url: string): Promise<boolean> {
  const { hostname, port } = new URL(url);
  return new Promise((resolve) => {
    const socket = connect(Number(port), hostname);
    socket.once('connect', () => (socket.destroy(), resolve(false)));
    socket.once('error', () => resolve(true));
  });
}

/** The zero-advantage groups counted by hand: tasks whose rewards are all equal (failed rollouts count 0). */
function handCount(transcripts: Transcript[]): { groups: number; flat: number } {
  const byTask = new Map<string, number[]>();
  for (const t of transcripts) byTask.set(t.groupKey, [...(byTask.get(t.groupKey) ?? []), t.status === 'error' ? 0 : (t.reward ?? 0)]);
  const groups = [...byTask.values()];
  return { groups: groups.length, flat: groups.filter((g) => g.every((r) => r === g[0])).length };
}

describe('local signal check (agent runner + job runtime)', function () {
  this.timeout(ceiling(180_000));
  let emulator: Emulator;
  const base = (agentFile: string, more: Partial<LocalSignalRun> = {}): LocalSignalRun => ({
    python: 'python3',
    script,
    agentFile,
    rows: dataset.slice(0, 8),
    groupSize: 4,
    policy: { baseUrl: `${emulator.url}/v1`, model: 'scripted-0.5' },
    concurrency: 4,
    timeoutMs: ceiling(30_000),
    ...more,
  });

  before(async () => {
    emulator = await startEmulator({ history: false });
  });
  after(() => emulator.close());

  it('plays 8 rows × 4 rollouts of a plain-Python agent against the scripted policy: 32 transcripts, the hand-counted zero-advantage share, nothing left running', async () => {
    const agent = path.join(fixtures, 'wordle_agent.py');
    const progress: number[] = [];
    const result = await runLocalSignal(base(agent, { onProgress: (done) => progress.push(done) }));
    assert.equal(result.transcripts.length, 32);
    assert.deepEqual(
      progress,
      Array.from({ length: 32 }, (_, i) => i + 1),
    );
    assert.equal(result.ignoredEndpoint, undefined);
    assert.equal(result.agentProblem, undefined);
    assert.deepEqual(result.diagnosis, []);
    for (const t of result.transcripts) {
      assert.equal(t.status, 'completed', t.error);
      assert.ok(typeof t.reward === 'number');
      assert.match(t.task.prompt, /^Guess the 5-letter word\. Play Wordle with guess_word\. Session local-/);
      assert.equal(t.turns[0].toolCalls[0].name, 'guess_word');
      // A tool's result reaches the runtime in the next model call: every turn but the last has its feedback.
      t.turns.slice(0, -1).forEach((turn, i) => assert.match(String(turn.toolCalls[0].result), new RegExp(`^Guess ${i + 1}/6: `)));
    }
    assert.ok(result.tokens.every((t) => t.prefill > 0 && t.sample > 0));
    const report = signalReport(result.transcripts, 1);
    const hand = handCount(result.transcripts);
    assert.equal(report.rollouts, 32);
    assert.equal(report.groups, hand.groups);
    assert.equal(report.zeroAdvantage.groups, hand.flat);
    assert.ok(hand.flat < hand.groups, 'the seeded policy gives some tasks differing rewards');
    assert.deepEqual(runnersOf(agent), []);
    assert.ok(await refused(result.runtimeUrl), 'the runtime port is closed');
  });

  it('plays the refund desk (tool calls with JSON arguments and results, partial credit): rewards equal the scripted episodes’, the share the hand count', async () => {
    const agent = path.join(fixtures, 'refund_agent.py');
    // The rows carry the ticket's hidden facts for the fixture's desk; the model sees only the prompt.
    const rows = refundRows('train')
      .slice(0, 8)
      .map(({ id, prompt }, index) => {
        const ticket = ticketOf(prompt);
        const want = expectedOutcome(ticket);
        const row = { id, prompt, order_id: ticket.orderId, price: ticket.price, reason: ticket.reason };
        return { row: { ...row, expected_amount: want.amount, expected_resolution: want.resolution }, index };
      });
    const result = await runLocalSignal(base(agent, { rows }));
    assert.equal(result.transcripts.length, 32);
    for (const t of result.transcripts) {
      assert.equal(t.status, 'completed', t.error);
      const episode = playRefund(String(t.task.row!.prompt), 0.5, new Random(hashSeed(`chat#0.5#${t.task.prompt}`)));
      assert.equal(t.reward, episode.reward, `${t.id}: the desk in the agent scores what the policy's episode scored`);
      const lookup = t.turns.flatMap((turn) => turn.toolCalls).find((c) => c.name === 'lookup_order' && c.result !== undefined);
      if (lookup) assert.equal(typeof lookup.result, 'object', 'JSON results are parsed');
    }
    assert.ok(
      result.transcripts.some((t) => t.reward! > 0 && t.reward! < 1),
      'partial credit',
    );
    // The agent stops after its last tool call: that call's result never reached the runtime, and says so; every other has its result.
    for (const t of result.transcripts) {
      const calls = t.turns.flatMap((turn) => turn.toolCalls);
      const last = t.turns.at(-1)!.toolCalls;
      for (const call of calls)
        if (last.includes(call)) assert.equal(call.resultNotSeen, true, `${t.id}: ${call.name} ended the rollout`);
        else assert.ok(call.result !== undefined && !call.resultNotSeen, `${t.id}: ${call.name} has its result`);
    }
    assert.ok(
      result.transcripts.some((t) => t.turns.at(-1)!.toolCalls.length),
      'some rollouts end after a tool call',
    );
    const report = signalReport(result.transcripts, 1);
    const hand = handCount(result.transcripts);
    assert.deepEqual([report.groups, report.zeroAdvantage.groups], [hand.groups, hand.flat]);
    assert.deepEqual(runnersOf(agent), []);
  });

  it('tells which line to change when the agent ignores the payload endpoint (a hard-coded host)', async () => {
    const agent = path.join(fixtures, 'hardcoded_agent.py');
    const result = await runLocalSignal(base(agent, { rows: dataset.slice(0, 2), groupSize: 2 }));
    assert.equal(result.transcripts.length, 4);
    const line =
      readFileSync(agent, 'utf8')
        .split('\n')
        .findIndex((l) => l.includes('job-runtime.sagemaker')) + 1;
    assert.equal(result.diagnosis.length, 1, JSON.stringify(result.diagnosis));
    assert.equal(result.diagnosis[0].kind, 'no-call');
    assert.match(result.diagnosis[0].sentence, new RegExp(`hardcoded_agent\\.py:${line} fixes the host`));
    assert.ok(result.transcripts.every((t) => t.status === 'error'));
  });

  it('the demo agent (its framework stubbed where not installed) is told its RFT_RUNTIME_ENDPOINT line', async () => {
    const agent = path.join(root, 'test/fixtures/demo-workspace/main.py');
    const saved = { id: process.env.AWS_ACCESS_KEY_ID, secret: process.env.AWS_SECRET_ACCESS_KEY };
    // Without credentials its SigV4 token fails first, and it says so in its own words.
    delete process.env.AWS_ACCESS_KEY_ID;
    const bare = await runLocalSignal(base(agent, { rows: dataset.slice(0, 1), groupSize: 1 }));
    assert.match(bare.diagnosis[0].sentence, /^The rollout: the agent reported `.*Unable to locate credentials`\. A SigV4 bearer token/);
    assert.doesNotMatch(bare.diagnosis[0].sentence, /mtrl_rollout/, 'record lines are not quoted');
    // With any key it signs, and then its fixed host is the cause.
    Object.assign(process.env, { AWS_ACCESS_KEY_ID: 'test', AWS_SECRET_ACCESS_KEY: 'test' });
    const result = await runLocalSignal(base(agent, { rows: dataset.slice(0, 1), groupSize: 2 })).finally(() => {
      for (const [k, v] of [
        ['AWS_ACCESS_KEY_ID', saved.id],
        ['AWS_SECRET_ACCESS_KEY', saved.secret],
      ] as const)
        if (v === undefined) delete process.env[k];
        else process.env[k] = v;
    });
    const line =
      readFileSync(agent, 'utf8')
        .split('\n')
        .findIndex((l) => l.startsWith('RFT_RUNTIME_ENDPOINT =')) + 1;
    const said = result.diagnosis.map((d) => d.sentence).join('\n');
    assert.match(said, new RegExp(`main\\.py:${line} fixes the host`));
    assert.match(said, /Or keep it and run with --endpoint-env RFT_RUNTIME_ENDPOINT --concurrency 1/);
  });

  /** An agent file written for one test: `body` is its entrypoint's body, after the imports every test agent needs. */
  const agentOf = (name: string, body: string[]) => {
    const file = path.join(mkdtempSync(path.join(tmpdir(), 'mtrl-agent-')), name);
    const head = [
      'import json',
      'import urllib.request',
      'from bedrock_agentcore.runtime import BedrockAgentCoreApp',
      'app = BedrockAgentCoreApp()',
    ];
    writeFileSync(file, [...head, '', '@app.entrypoint', 'def handle(payload):', ...body.map((l) => `    ${l}`), ''].join('\n'));
    return file;
  };
  // One Wordle opening, non-streamed, at a URL built from the payload's endpoint.
  const callAt = (url: string) => [
    'body = json.dumps({"model": "policy", "messages": [{"role": "user", "content": "Guess the 5-letter word"}]}).encode()',
    `urllib.request.urlopen(urllib.request.Request(${url}, body, {"content-type": "application/json"}), timeout=30).read()`,
  ];

  it('the payload as the service sends it: metadata.endpoint without /v1, a job ARN …:job/AgentRFT/<name>, inferenceParams in both spellings', async () => {
    const agent = agentOf('payload_agent.py', [
      ...callAt('payload["metadata"]["endpoint"] + "/v1/chat/completions"'),
      'keep = ("metadata", "inferenceParams", "modelEndpoint")',
      'return {"reward": 0.0, "metrics": {k: payload[k] for k in keep}}',
    ]);
    const inferenceParams = { temperature: 0.7, max_tokens: 123, top_p: 0.9 };
    const result = await runLocalSignal(base(agent, { rows: dataset.slice(0, 1), groupSize: 2, inferenceParams }));
    assert.deepEqual(result.diagnosis, []);
    for (const t of result.transcripts) {
      assert.equal(t.status, 'completed', t.error);
      const sent = t.metrics as { metadata: Record<string, string>; inferenceParams: unknown; modelEndpoint: string };
      const endpoint = `${result.runtimeUrl}/rollouts/${t.id}`;
      assert.equal(sent.metadata.endpoint, endpoint, 'the base URL without /v1, one per rollout');
      assert.equal(sent.modelEndpoint, endpoint);
      assert.match(sent.metadata.job_arn, /^arn:aws:sagemaker:us-east-1:\d{12}:job\/AgentRFT\/[^/]+$/);
      assert.deepEqual(
        [sent.metadata.jobArn, sent.metadata.trajectory_id, sent.metadata.trajectoryId, sent.metadata.region],
        [sent.metadata.job_arn, t.id, t.id, 'us-east-1'],
      );
      assert.deepEqual(sent.inferenceParams, { temperature: 0.7, max_tokens: 123, maxTokens: 123, top_p: 0.9, topP: 0.9 });
    }
  });

  describe('diagnosis: the first line names the real cause', () => {
    it('an agent calling <endpoint>/chat/completions (no /v1): the path it called, what the runtime serves, the fix', async () => {
      const agent = agentOf('no_v1_agent.py', [
        ...callAt('payload["metadata"]["endpoint"] + "/chat/completions"'),
        'return {"reward": 1.0}',
      ]);
      const result = await runLocalSignal(base(agent, { rows: dataset.slice(0, 1), groupSize: 2 }));
      assert.deepEqual(
        result.diagnosis.map((d) => [d.kind, d.rollouts]),
        [['unserved-path', 2]],
      );
      const [id] = result.transcripts.map((t) => t.id);
      assert.match(
        result.diagnosis[0].sentence,
        new RegExp(
          `^All 2 rollouts made no model call the runtime could serve: calls arrived at .*/rollouts/${id}/chat/completions \\(1 call\\)`,
        ),
      );
      assert.match(
        result.diagnosis[0].sentence,
        /Chat completions live under \/v1, as in the service: base_url = metadata\.endpoint \+ "\/v1"/,
      );
      assert.doesNotMatch(result.diagnosis[0].sentence, /ignores the payload's endpoint/);
    });

    const lineOf = (file: string, text: string) =>
      readFileSync(file, 'utf8')
        .split('\n')
        .findIndex((l) => l.includes(text)) + 1;
    const tickets = (n: number) =>
      readFileSync(path.join(root, 'test/fixtures/real-run/data/training_prompts.csv'), 'utf8')
        .split('\n')
        .slice(1, n + 1)
        .map((line, index) => ({ row: { prompt: JSON.parse(line) as string }, index }));

    it("the support agent's own allow-list refuses the local URL: its line and message, how to allow it, the stubbed packages", async () => {
      const agent = path.join(fixtures, 'support_agent.py');
      const result = await runLocalSignal(base(agent, { rows: tickets(2), groupSize: 2 }));
      assert.equal(result.transcripts.length, 4);
      const [first, ...rest] = result.diagnosis;
      assert.deepEqual(rest, []);
      assert.equal(first.kind, 'agent-raised');
      const line = lineOf(agent, 'raise ValueError');
      assert.match(
        first.sentence,
        new RegExp(
          `^All 4 rollouts failed: the agent raised support_agent\\.py:${line}: ValueError: Refusing an untrusted SageMaker Job Runtime endpoint\\.`,
        ),
      );
      assert.match(first.sentence, /accept http:\/\/127\.0\.0\.1 too/);
      assert.match(first.sentence, /bedrock_agentcore, sagemaker, strands are not installed for python3 .* --python/);
      assert.doesNotMatch(first.sentence, /ignores the payload's endpoint/);
    });

    it('a support conversation against the emulator policy is a policy refusal, not a reward problem', async () => {
      const agent = path.join(fixtures, 'support_plain_agent.py');
      const result = await runLocalSignal(base(agent, { rows: tickets(2), groupSize: 2, scriptedPolicy: true }));
      assert.deepEqual(
        result.diagnosis.map((d) => d.kind),
        ['policy-refused'],
      );
      assert.match(result.diagnosis[0].sentence, /^All 4 rollouts: the policy does not play this agent's task\./);
      assert.match(result.diagnosis[0].sentence, /plays only its own Wordle and refund-desk tasks.*pass --policy URL/);
      assert.ok(signalReport(result.transcripts).recommendations.every((s) => !/easier tasks|partial credit/.test(s)));
    });

    it('a rollout that fails inside a stubbed framework names the packages and --python', async () => {
      const agent = path.join(fixtures, 'stubbed_agent.py');
      const result = await runLocalSignal(base(agent, { rows: dataset.slice(0, 1), groupSize: 2 }));
      assert.deepEqual(
        result.diagnosis.map((d) => d.kind),
        ['inside-stub'],
      );
      assert.match(
        result.diagnosis[0].sentence,
        new RegExp(`replaced by stubs \\(bedrock_agentcore, strands\\): stubbed_agent\\.py:${lineOf(agent, 'float(')}: TypeError`),
      );
      assert.match(result.diagnosis[0].sentence, /Pass --python/);
    });

    it('an agent raising in its own code before any model call: its line and message', async () => {
      const agent = path.join(fixtures, 'raising_agent.py');
      const result = await runLocalSignal(base(agent, { rows: dataset.slice(0, 1), groupSize: 2 }));
      assert.deepEqual(
        result.diagnosis.map((d) => [d.kind, d.rollouts]),
        [['agent-raised', 2]],
      );
      assert.match(result.diagnosis[0].sentence, new RegExp(`raising_agent\\.py:${lineOf(agent, 'ticket_id')}: KeyError: 'ticket_id'`));
    });
  });

  it('stops at the first rollout when the agent file cannot run, naming its line', async () => {
    const dir = mkdtempSync(path.join(tmpdir(), 'mtrl-agent-'));
    const agent = path.join(dir, 'broken.py');
    writeFileSync(agent, 'import json\n\n@app.entrypoint\ndef handle(payload)\n    return {}\n');
    const result = await runLocalSignal(base(agent, { concurrency: 1 }));
    assert.match(result.agentProblem ?? '', /^broken\.py:4: SyntaxError/);
    assert.equal(result.transcripts.length, 1);
  });

  it('cancel stops the rollouts in flight and starts no more; no process or port is left', async () => {
    const agent = path.join(fixtures, 'wordle_agent.py');
    const abort = new AbortController();
    const result = await runLocalSignal(base(agent, { signal: abort.signal, onProgress: (done) => done === 2 && abort.abort() }));
    assert.equal(result.cancelled, true);
    assert.ok(result.transcripts.length < 32 && result.transcripts.length >= 2, `${result.transcripts.length} played`);
    assert.deepEqual(runnersOf(agent), []);
    assert.ok(await refused(result.runtimeUrl));
  });
});
