import { strict as assert } from 'node:assert';
import { copyFileSync, mkdtempSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { main } from '../../../src/cli';
import { JsonTooDeep, MAX_JSON_DEPTH, parseOutsideJson } from '../../../src/core/text/json';

// JSON nested 100,000 levels deep in a log, saved transcripts, a traces document or a scenario file: a sentence naming
// the limit and the line, never "Maximum call stack size exceeded" with a stack trace.

const LEVELS = 100_000;
const deepArray = `${'['.repeat(LEVELS)}${']'.repeat(LEVELS)}`;
const deepObject = `${'{"a":'.repeat(LEVELS)}1${'}'.repeat(LEVELS)}`;

async function cli(...argv: string[]): Promise<{ code: number; out: string; err: string }> {
  let out = '';
  let err = '';
  const code = await main(argv, { out: (t) => void (out += t + '\n'), err: (t) => void (err += t + '\n'), stdin: () => [] });
  return { code, out, err };
}

function file(name: string, text: string): string {
  const dir = mkdtempSync(path.join(tmpdir(), 'mtrl-deep-'));
  const at = path.join(dir, name);
  writeFileSync(at, text);
  return at;
}

const record = (id: string, reward: number, args: string) =>
  `{"mtrl_rollout":1,"trajectory_id":"${id}","prompt":"p","reward":${reward},"turns":[{"text":"x","tool_calls":[{"name":"t","arguments":${args}}]}]}`;

const noStack = (text: string) => assert.doesNotMatch(text, /call stack|RangeError|\n\s+at /);

describe('hostile JSON nested 100,000 levels deep', () => {
  it('parseOutsideJson keeps JSON at the limit and refuses one level more', () => {
    const at = (levels: number) => `${'['.repeat(levels)}${']'.repeat(levels)}`;
    assert.doesNotThrow(() => parseOutsideJson(at(MAX_JSON_DEPTH)));
    assert.throws(() => parseOutsideJson(at(MAX_JSON_DEPTH + 1)), JsonTooDeep);
    assert.throws(() => parseOutsideJson(deepObject), /JSON nested deeper than 256 levels is not read/);
  });

  for (const [name, args] of [
    ['object', deepObject],
    ['array', deepArray],
  ] as const)
    it(`mtrl rollouts names a log line whose tool arguments are a deep ${name} and reads the rest (summary, --json, --transcripts)`, async () => {
      const log = file('run.log', `${record('deep', 1, args)}\n${record('fine', 0, '{"action":"y"}')}\n`);
      for (const flags of [[], ['--json'], ['--transcripts']]) {
        const { code, out, err } = await cli('rollouts', ...flags, log);
        assert.equal(code, 0, err);
        assert.ok(err.includes('mtrl rollouts: line 1 holds JSON nested deeper than 256 levels and was not read.'), err);
        noStack(err);
        if (flags[0] === '--transcripts') assert.equal(out.trim().split('\n').length, 1);
      }
    });

  it('mtrl rollouts names a deep line of saved transcripts', async () => {
    const first = JSON.stringify({ id: 'a', groupKey: 'g', task: { prompt: 'p' }, turns: [], reward: 1 });
    const saved = file('kept.jsonl', `${first}\n{"id":"b","groupKey":"g","task":{"prompt":"p"},"turns":${deepArray}}\n`);
    const { code, err } = await cli('rollouts', saved);
    assert.equal(code, 2);
    assert.ok(err.includes(`${saved}:2 holds JSON nested deeper than 256 levels: not read`), err);
    noStack(err);
  });

  it('mtrl rollouts names a deep traces document', async () => {
    const traces = file('traces.json', `{"traces":[{"info":{"trace_id":"t"},"data":{"spans":${deepObject}}}]}`);
    const { err } = await cli('rollouts', traces);
    assert.match(err, /line 1 holds JSON nested deeper than 256 levels and was not read/);
    noStack(err);
  });

  it('mtrl reward names a deep scenario file before any Python runs', async () => {
    const scenarios = file(
      'deep.mtrl-reward.json',
      `{"reward":{"file":"math_reward.py","function":"reward"},"task":{"prompt":"p","answer":${deepArray}},"scenarios":{"a":{"turns":[]}}}`,
    );
    copyFileSync(
      path.resolve(__dirname, '../../fixtures/workspace/reward-scenarios/math_reward.py'),
      path.join(path.dirname(scenarios), 'math_reward.py'),
    );
    const { code, err } = await cli('reward', scenarios);
    assert.equal(code, 2);
    assert.equal(err, `mtrl reward: ${scenarios}: JSON nested deeper than 256 levels is not read.\n`);
  });
});
