import { strict as assert } from 'node:assert';
import { mkdtempSync, readdirSync, readFileSync, readlinkSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { main } from '../../../src/cli';
import { enrichTranscript } from '../../../src/core/environments/registry';
import type { WordleData } from '../../../src/core/environments/wordle/pack';
import type { Transcript } from '../../../src/core/transcript/model';
import { savedTranscripts } from '../../../src/services/rollouts/saved';
import { ceiling } from '../../host/lib/ceiling';
import { leftRunning } from '../processes';

const root = path.resolve(__dirname, '../../..');
const agent = path.join(root, 'test/fixtures/demo-workspace/main.py');
const data = path.join(root, 'test/fixtures/demo-workspace/data/training-data.jsonl');
// Strands cannot be installed here: the test puts a stand-in of the parts the demo uses on PYTHONPATH (a fixture, not product code).
const standins = path.join(root, 'test/fixtures/signal/standins');
// The demo signs a SigV4 bearer token with botocore before each attempt: fake credentials sign it (the local runtime ignores it).
const agentEnv = {
  PYTHONPATH: standins,
  AWS_ACCESS_KEY_ID: 'AKIDEXAMPLE',
  AWS_SECRET_ACCESS_KEY: 'fake-secret',
  AWS_SESSION_TOKEN: 'fake',
};

async function mtrl(...args: string[]) {
  const out: string[] = [];
  const err: string[] = [];
  const code = await main(args, { out: (t) => out.push(t), err: (t) => err.push(t), stdin: () => [] });
  return { code, out: out.join('\n'), err: err.join('\n') };
}

/** Inodes of the TCP sockets this process listens on (state 0A in /proc/net/tcp). */
function listeningSockets(): string[] {
  const mine = new Set(
    readdirSync('/proc/self/fd').flatMap((fd) => {
      try {
        return [/^socket:\[(\d+)\]$/.exec(readlinkSync(`/proc/self/fd/${fd}`))?.[1] ?? ''];
      } catch {
        return [];
      }
    }),
  );
  return ['/proc/net/tcp', '/proc/net/tcp6']
    .flatMap((f) => readFileSync(f, 'utf8').split('\n').slice(1))
    .map((l) => l.trim().split(/\s+/))
    .filter((cols) => cols[3] === '0A' && mine.has(cols[9]))
    .map((cols) => cols[9])
    .sort();
}

/** A killed process and a closed server let go on a later turn of the event loop: waited for, never for ever. */
async function settled(done: () => boolean): Promise<void> {
  const deadline = Date.now() + ceiling(2_500);
  while (!done() && Date.now() < deadline) await new Promise((resolve) => setTimeout(resolve, 100));
}

/** Agent runners (or the demo agent) this test started and did not end. */
function runners(): number[] {
  return leftRunning(path.join(root, 'src/python/agent_runner.py'), agent);
}

/** Tasks whose G rewards are all equal, counted by hand (a failed rollout counts 0). */
function handCount(transcripts: Transcript[]): { groups: number; flat: number } {
  const byTask = new Map<string, number[]>();
  for (const t of transcripts) byTask.set(t.groupKey, [...(byTask.get(t.groupKey) ?? []), t.status === 'error' ? 0 : (t.reward ?? 0)]);
  const groups = [...byTask.values()];
  return { groups: groups.length, flat: groups.filter((g) => g.every((r) => r === g[0])).length };
}

describe('mtrl signal --local on the demo agent (Strands stand-in streaming as Strands does, fixed RFT_RUNTIME_ENDPOINT)', function () {
  this.timeout(ceiling(120_000));
  const saved: Record<string, string | undefined> = {};
  before(() => {
    for (const [k, v] of Object.entries(agentEnv)) [saved[k], process.env[k]] = [process.env[k], v];
  });
  after(() => {
    for (const k of Object.keys(agentEnv))
      if (saved[k] === undefined) delete process.env[k];
      else process.env[k] = saved[k];
  });

  it('plays K=8 × G=4 one at a time: 32 rollouts kept for the board, the hand-counted zero-advantage share, nothing left running or listening', async () => {
    const dir = mkdtempSync(path.join(tmpdir(), 'mtrl-demo-signal-'));
    const out = path.join(dir, 'demo.jsonl');
    // Every usage the stand-in was told, to hold the runtime's count to.
    const told = path.join(dir, 'usage.jsonl');
    process.env.STRANDS_STANDIN_USAGE_LOG = told;
    const listeningBefore = listeningSockets();
    let played: Awaited<ReturnType<typeof mtrl>>;
    try {
      played = await mtrl(
        'signal',
        '--local',
        agent,
        '--data',
        data,
        '--rows',
        '8',
        '--group-size',
        '4',
        '--policy',
        'emulator:0.5',
        '--endpoint-env',
        'RFT_RUNTIME_ENDPOINT',
        '--concurrency',
        '1',
        '--timeout',
        '60',
        '--transcripts-out',
        out,
        '--store',
        path.join(dir, 'store'),
        '--json',
      );
    } finally {
      delete process.env.STRANDS_STANDIN_USAGE_LOG;
    }
    const { code, out: json, err } = played;
    assert.ok(code === 0 || code === 1, err);
    const report = JSON.parse(json) as {
      rollouts: number;
      groups: number;
      problem?: string;
      zeroAdvantage: { groups: number };
      tokensPerRollout: { prefill: number; sample: number };
    };
    assert.equal(report.problem, undefined);
    // The stand-in streams as Strands does: the tokens come from the stream's usage chunks, exactly what the agent was told.
    const usage = readFileSync(told, 'utf8')
      .trim()
      .split('\n')
      .map((l) => JSON.parse(l) as { prompt_tokens: number; completion_tokens: number });
    const sum = (key: 'prompt_tokens' | 'completion_tokens') => usage.reduce((s, u) => s + u[key], 0);
    assert.ok(sum('prompt_tokens') > 0 && sum('completion_tokens') > 0);
    assert.deepEqual([report.tokensPerRollout.prefill * 32, report.tokensPerRollout.sample * 32].map(Math.round), [
      sum('prompt_tokens'),
      sum('completion_tokens'),
    ]);
    assert.equal(report.rollouts, 32);
    const board = await savedTranscripts(out);
    assert.ok(board, 'the kept rollouts open as saved transcripts on the board');
    assert.equal(board.length, 32);
    for (const t of board) {
      assert.equal(t.status, 'completed', t.error);
      assert.ok(t.turns.length > 0, `${t.id}: the demo's model calls reached the runtime`);
      assert.equal(t.turns[0].toolCalls[0]?.name, 'guess_word');
      assert.ok(t.reward! > -1.5, `${t.id}: the demo's reward for a game with guesses, not the -1.5 of one never played`);
      // The board's Wordle tiles read the demo's guess_word(word) argument.
      const words = t.turns.flatMap((turn) => turn.toolCalls.map((c) => (c.arguments as { word?: string }).word));
      assert.equal(enrichTranscript(t).env?.pack, 'wordle');
      assert.deepEqual(
        (t.env!.data as WordleData).turns.map((turn) => turn.guess),
        words.slice(0, (t.env!.data as WordleData).turns.length),
      );
    }
    const hand = handCount(board);
    assert.deepEqual([report.groups, report.zeroAdvantage.groups], [hand.groups, hand.flat]);
    assert.ok(hand.flat < hand.groups, 'the scripted policy samples a new game per rollout of the same prompt: some groups differ');
    await settled(() => runners().length === 0 && listeningSockets().length === listeningBefore.length);
    assert.deepEqual(runners(), []);
    assert.deepEqual(listeningSockets(), listeningBefore, 'the job runtime and the emulator policy closed their ports');
  });

  it('without Strands installed and with --endpoint-env given: the report names the stubbed packages, not --endpoint-env again', async () => {
    const dir = mkdtempSync(path.join(tmpdir(), 'mtrl-demo-signal-'));
    delete process.env.PYTHONPATH;
    try {
      const { code, out } = await mtrl(
        'signal',
        '--local',
        agent,
        '--data',
        data,
        '--rows',
        '2',
        '--group-size',
        '2',
        '--endpoint-env',
        'RFT_RUNTIME_ENDPOINT',
        '--store',
        path.join(dir, 'store'),
        '--json',
      );
      assert.equal(code, 1);
      const { problem } = JSON.parse(out) as { problem?: string };
      assert.match(
        problem ?? '',
        /^No model call arrived from the agent, though RFT_RUNTIME_ENDPOINT named the local runtime: .*strands.* --python/,
      );
    } finally {
      process.env.PYTHONPATH = standins;
    }
  });

  it('several rollouts in flight and only the job’s header (no X-Amzn-SageMaker-Trajectory-Id): refused, and the sentence names the line and --concurrency 1', async () => {
    const dir = mkdtempSync(path.join(tmpdir(), 'mtrl-demo-signal-'));
    const { code, out } = await mtrl(
      'signal',
      '--local',
      agent,
      '--data',
      data,
      '--rows',
      '2',
      '--group-size',
      '2',
      '--endpoint-env',
      'RFT_RUNTIME_ENDPOINT',
      '--concurrency',
      '4',
      '--timeout',
      '60',
      '--store',
      path.join(dir, 'store'),
    );
    const line =
      readFileSync(agent, 'utf8')
        .split('\n')
        .findIndex((l) => l.startsWith('RFT_RUNTIME_ENDPOINT =')) + 1;
    assert.equal(code, 1);
    assert.match(out, new RegExp(`could not be matched to a rollout.*--concurrency 1.*main\\.py:${line}`));
    await settled(() => runners().length === 0);
    assert.deepEqual(runners(), []);
  });
});
