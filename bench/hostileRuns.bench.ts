// Issue 37's reproductions, end to end: the built `mtrl` CLI against bounded stand-ins on 127.0.0.1 and hostile files,
// each held to the bounds of bench/lib/reproductions.ts.
import { closeSync, copyFileSync, mkdtempSync, openSync, rmSync, writeFileSync, writeSync, ftruncateSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { startStandIn, type ObjectMode } from '../test/unit/hostile/standIn';
import { againstPolicy, runReproductions, type Case } from './lib/reproductions';

const root = path.resolve(__dirname, '..');
const MB = 2 ** 20;
const fixtures = path.join(root, 'test/fixtures');
const dir = mkdtempSync(path.join(tmpdir(), 'mtrl-bench-hostile-'));

const file = (name: string, text: string) => (writeFileSync(path.join(dir, name), text), path.join(dir, name));
const transcript = (id: string) => JSON.stringify({ id, groupKey: 'g', task: { prompt: 'p' }, turns: [], reward: 1, status: 'completed' });

/** A saved-transcripts file of `bytes`: one real line, then a hole (read back as NUL bytes, one endless line). */
function sparseTranscripts(name: string, bytes: number): string {
  const target = file(name, `${transcript('a')}\n`);
  const fd = openSync(target, 'r+');
  ftruncateSync(fd, bytes);
  closeSync(fd);
  return target;
}

/** One line of `bytes` characters: `{"id":"aaa…"}`. */
function oneLine(name: string, bytes: number): string {
  const target = path.join(dir, name);
  const fd = openSync(target, 'w');
  const chunk = Buffer.alloc(MB, 'a');
  writeSync(fd, '{"id":"');
  for (let left = bytes; left > 0; left -= MB) writeSync(fd, chunk, 0, Math.min(MB, left));
  writeSync(fd, '"}\n');
  closeSync(fd);
  return target;
}

/** A scenario file beside a copy of `reward` (a fixture path), holding `body`'s fields. */
function scenarioFile(name: string, reward: string, fn: string, body: Record<string, unknown>): string {
  copyFileSync(path.join(fixtures, reward), path.join(dir, path.basename(reward)));
  return file(name, JSON.stringify({ reward: { file: path.basename(reward), function: fn }, task: 't', ...body }));
}

const deep = (levels: number) => `${'['.repeat(levels)}${']'.repeat(levels)}`;

/** `mtrl rollouts --job hostile --from traces` against a stand-in listing `traces` traces whose traces.json answers `object`. */
function fromS3(traces: number, object: ObjectMode): Case['setup'] {
  return async () => {
    const server = await startStandIn({ traces, object, lifetimeMs: 180_000 });
    return { args: ['rollouts', '--job', 'hostile', '--from', 'traces', '--endpoint', server.url], close: server.close };
  };
}

const ARTIFACT = 64 * MB;
const ANSWER = 64 * MB;
const cases: Case[] = [
  {
    what: 'an endless traces.json body from S3 (the 64 MB cap + 1 byte)',
    timeoutS: 60,
    sentence: /traces\.json passed 64 MB/,
    setup: fromS3(1, { kind: 'endless', bytes: ARTIFACT + 1 }),
  },
  {
    what: '64 traces, each traces.json endless (32 read at once)',
    timeoutS: 60,
    // The reads side by side share one allowance: the first to pass it is named (each alone is still within 64 MB).
    sentence: /trace artifacts read at once held more than \d+ MB together/,
    setup: fromS3(64, { kind: 'endless', bytes: ARTIFACT + 1 }),
  },
  {
    what: 'a traces.json 100,000 levels deep from S3',
    timeoutS: 60,
    sentence: /nested deeper than 256 levels/,
    setup: fromS3(1, { kind: 'deep', levels: 100_000 }),
  },
  {
    what: 'a policy whose answer never ends (64 MB cap + 1 byte), agent without stream',
    timeoutS: 60,
    sentence: /answered more than 64 MB; the local job runtime cuts answers at 64 MB/,
    setup: againstPolicy(dir, 'wordle_agent.py', { kind: 'endless', bytes: ANSWER + 1 }),
  },
  {
    what: 'a policy whose stream never ends (64 MB cap + 1 byte), agent asking for a stream',
    timeoutS: 60,
    sentence: /answered more than 64 MB; the local job runtime cuts answers at 64 MB/,
    setup: againstPolicy(dir, 'streaming_agent.py', { kind: 'endless', bytes: ANSWER + 1 }),
  },
  {
    what: 'a policy error of 50 MB (500, a well-formed OpenAI error)',
    timeoutS: 60,
    sentence: /the policy refused their model calls \("overloaded overloaded/,
    setup: againstPolicy(dir, 'wordle_agent.py', { kind: 'error', status: 500, bytes: 50 * MB }),
  },
  {
    what: 'a policy error of 64 MB, just within the cap',
    timeoutS: 60,
    sentence: /the policy refused their model calls \("overloaded overloaded/,
    setup: againstPolicy(dir, 'wordle_agent.py', { kind: 'error', status: 500, bytes: ANSWER }),
  },
  {
    what: 'saved transcripts of 600 MB (sparse: one line, then NUL bytes)',
    timeoutS: 60,
    sentence: /past the line cap of 64 M characters: not read/,
    setup: async () => ({ args: ['rollouts', sparseTranscripts('kept-600m.jsonl', 600 * MB), '--deadline', '60'] }),
  },
  {
    what: 'saved transcripts of 2 GiB (sparse)',
    timeoutS: 60,
    sentence: /past the line cap of 64 M characters: not read/,
    setup: async () => ({ args: ['rollouts', sparseTranscripts('kept-2g.jsonl', 2048 * MB), '--deadline', '60'] }),
  },
  {
    what: 'mtrl reward --rescore a file of one 500 MB line',
    timeoutS: 60,
    sentence: /is longer than 64 M characters and was not read/,
    setup: async () => {
      const scenarios = scenarioFile('constant.mtrl-reward.json', 'workspace/reward-scenarios/constant_reward.py', 'reward', {
        scenarios: { a: [] },
      });
      return { args: ['reward', scenarios, '--rescore', oneLine('line.jsonl', 500 * 1_000_000), '--deadline', '60'] };
    },
  },
  {
    what: 'a scenario file of 1,000,000 scenarios',
    timeoutS: 60,
    sentence: /1,000,000 scenarios: a file holds at most 10,000/,
    setup: async () => {
      const scenarios = Object.fromEntries(Array.from({ length: 1_000_000 }, (_, i) => [`s${i}`, []]));
      const target = scenarioFile('many.mtrl-reward.json', 'workspace/reward-scenarios/constant_reward.py', 'reward', { scenarios });
      return { args: ['reward', target, '--deadline', '60'] };
    },
  },
  {
    what: 'a scenario file 100,000 levels deep',
    timeoutS: 60,
    sentence: /JSON nested deeper than 256 levels is not read/,
    setup: async () => {
      const target = path.join(dir, 'deep.mtrl-reward.json');
      copyFileSync(path.join(fixtures, 'workspace/reward-scenarios/math_reward.py'), path.join(dir, 'math_reward.py'));
      writeFileSync(
        target,
        `{"reward":{"file":"math_reward.py","function":"reward"},"task":{"prompt":"p","answer":${deep(100_000)}},"scenarios":{"a":[]}}`,
      );
      return { args: ['reward', target, '--deadline', '60'] };
    },
  },
  {
    what: 'a traces file whose spans are 100,000 levels deep',
    timeoutS: 60,
    sentence: /nested deeper than 256 levels and was not read/,
    setup: async () => ({
      args: [
        'rollouts',
        file('traces.json', `{"traces":[{"info":{"trace_id":"t"},"data":{"spans":${deep(100_000)}}}]}`),
        '--deadline',
        '60',
      ],
    }),
  },
  {
    what: 'a scenario file whose reward "file" is /dev/zero',
    timeoutS: 60,
    sentence: /"\/dev\/zero" is outside the scenario file's folder/,
    setup: async () => ({
      args: [
        'reward',
        file(
          'zero.mtrl-reward.json',
          JSON.stringify({ reward: { file: '/dev/zero', function: 'reward' }, task: 't', scenarios: { a: [] } }),
        ),
      ],
    }),
  },
  {
    what: 'reward code that starts a daemon (setsid, a port) and loops, --timeout 5',
    timeoutS: 5,
    sentence: /did not finish within 5 s and was stopped/,
    setup: async () => ({ args: ['reward', path.join(fixtures, 'reward/daemon_then_loop.py'), '--timeout', '5'] }),
  },
  {
    what: 'reward code that starts a daemon at import and leaves with os._exit, --timeout 5',
    timeoutS: 5,
    sentence: /exited with code 0 without a result/,
    setup: async () => ({
      args: [
        'reward',
        scenarioFile('daemon.mtrl-reward.json', 'reward/detached_daemon.py', 'reward', { scenarios: { a: [] } }),
        '--timeout',
        '5',
      ],
    }),
  },
  {
    what: 'an agent that starts a daemon and leaves with os._exit (signal --local, --timeout 60)',
    timeoutS: 60,
    sentence: /The agent runner exited with code 0 without a result/,
    setup: againstPolicy(dir, 'daemon_agent.py'),
  },
];

runReproductions(cases)
  .finally(() => rmSync(dir, { recursive: true, force: true }))
  .catch((error: Error) => {
    console.error(error);
    process.exitCode = 1;
  });
