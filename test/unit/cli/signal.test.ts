import { strict as assert } from 'node:assert';
import { createHash } from 'node:crypto';
import { mkdtempSync, readFileSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { main } from '../../../src/cli';
import { signalCommand } from '../../../src/cli/signal';
import { ceiling } from '../../host/lib/ceiling';

async function mtrl(...args: string[]) {
  const out: string[] = [];
  const err: string[] = [];
  const code = await main(args, { out: (t) => out.push(t), err: (t) => err.push(t), stdin: () => [] });
  return { code, out: out.join('\n'), err: err.join('\n') };
}

function transcripts(tasks: Record<string, number[]>): string {
  const file = path.join(mkdtempSync(path.join(tmpdir(), 'mtrl-signal-')), 'run.jsonl');
  const lines = Object.entries(tasks).flatMap(([task, rewards]) =>
    rewards.map((reward, i) =>
      JSON.stringify({
        id: `${task}-${i}`,
        groupKey: task,
        reward,
        status: 'completed',
        source: 'trace',
        task: { prompt: task },
        turns: [],
      }),
    ),
  );
  writeFileSync(file, lines.join('\n'));
  return file;
}

describe('mtrl signal', () => {
  it('exit 1 and the advice when every task is solved by every rollout, thin evidence or not', async () => {
    const { code, out } = await mtrl('signal', transcripts({ a: [1, 1], b: [1, 1] }));
    assert.equal(code, 1, 'thin evidence never lowers the exit code');
    assert.match(out, /^ {2}! Thin evidence: 2 tasks and 4 rollouts/m);
    assert.match(out, /zero-advantage groups: 2\/2 = 100\.0 % \(2 always solved, 0 never solved, 0 the same partial credit\)/);
    assert.match(out, /- 100 % of tasks are solved by every rollout: they teach nothing/);
  });

  it('exit 0 and --json with the figures when most groups have a signal', async () => {
    const { code, out } = await mtrl('signal', transcripts({ a: [1, 0], b: [0.5, 1], c: [0, 0] }), '--json');
    assert.equal(code, 0);
    const report = JSON.parse(out);
    assert.equal(report.zeroAdvantage.groups, 1);
    assert.equal(report.groups, 3);
    assert.deepEqual(report.solvedBy, [1, 2, 0]);
  });

  it('exit 1 when no task has two rollouts: no group, so no evidence of a signal (the editor calls it bad too)', async () => {
    const { code, out } = await mtrl('signal', transcripts({ a: [1], b: [0], c: [0.5] }));
    assert.equal(code, 1);
    assert.match(out, /zero-advantage groups: 0\/0 = n\/a/);
    // The histogram counts the tasks "solved" counts (#47: "1 solved" above "1/1: 0").
    assert.match(out, /solved: 1 \(reward ≥ 1\)/);
    assert.match(out, /^ {5}0\/1 {6}2 /m);
    assert.match(out, /^ {5}1\/1 {6}1 /m);
  });

  it('the advice to change the reward names the rollouts to re-score it on', async () => {
    const file = transcripts({ a: [0.5, 0.5], b: [0.5, 0.5], c: [0.2, 0.2] });
    const { out } = await mtrl('signal', file);
    assert.ok(out.includes(`try it on these rollouts with mtrl reward REWARD.mtrl-reward.json --rescore ${file})`), out);
  });

  it('the histogram says how many tasks have another number of rollouts than the group size', async () => {
    const { out } = await mtrl('signal', transcripts({ a: [1, 0], b: [1, 1], c: [1] }));
    assert.match(out, /\(1 more tasks have another number of rollouts than 2: not in this histogram\)/);
  });

  it('a file holding no rollout is a usage error naming it', async () => {
    const file = path.join(mkdtempSync(path.join(tmpdir(), 'mtrl-signal-')), 'x.jsonl');
    writeFileSync(file, '{"nope": 1}\n');
    const { code, err } = await mtrl('signal', file);
    assert.equal(code, 2);
    assert.match(err, /no rollouts in .*x\.jsonl/);
  });

  describe('--local', function () {
    this.timeout(ceiling(60_000));
    const root = path.resolve(__dirname, '../../..');
    const agent = path.join(root, 'test/fixtures/signal/wordle_agent.py');
    const data = path.join(root, 'test/fixtures/datasets/training-data.jsonl');

    it('plays the agent against the emulator policy and reports the same figures plus tokens, projected cost and kept transcripts', async () => {
      const out = path.join(mkdtempSync(path.join(tmpdir(), 'mtrl-signal-')), 'local.jsonl');
      const store = mkdtempSync(path.join(tmpdir(), 'mtrl-signal-store-'));
      const args = ['--local', agent, '--data', data, '--rows', '3', '--group-size', '2', '--seed', '7', '--store', store];
      const { out: json } = await mtrl('signal', ...args, '--steps', '10', '--batch-size', '4', '--transcripts-out', out, '--json');
      const report = JSON.parse(json) as {
        rollouts: number;
        tokensPerRollout: { prefill: number };
        projectedCost: { rollouts: number; low: number };
      };
      assert.equal(report.rollouts, 6);
      assert.ok(report.tokensPerRollout.prefill > 0);
      assert.equal(report.projectedCost.rollouts, 80);
      assert.ok(report.projectedCost.low > 0);
      const kept = await mtrl('signal', out, '--json');
      assert.equal((JSON.parse(kept.out) as { rollouts: number }).rollouts, 6, 'the kept transcripts read back by the transcript route');

      // The result is kept per data path + agent file + reward version (the agent file's hash: its reward is inside).
      const listed = await mtrl('signal', '--check', '--store', store, '--json');
      assert.equal(listed.code, 0, listed.err);
      const [check] = JSON.parse(listed.out) as {
        key: Record<string, string>;
        status: string;
        route: string;
        rollouts: string;
        report: { rollouts: number };
        tokensPerRollout: { prefill: number };
        projectedCost: { rollouts: number };
      }[];
      assert.deepEqual(check.key, {
        dataset: data,
        runtime: agent,
        reward: `sha256:${createHash('sha256').update(readFileSync(agent)).digest('hex')}`,
      });
      assert.equal(check.route, 'local');
      assert.equal(check.status, 'done');
      assert.equal(check.rollouts, out);
      assert.equal(check.report.rollouts, 6);
      assert.ok(check.tokensPerRollout.prefill > 0);
      assert.equal(check.projectedCost.rollouts, 80);
    });

    it('--data reads JSON Lines, JSON, CSV and Parquet as mtrl validate does: each plays the same rows', async () => {
      const played: string[][] = [];
      for (const ext of ['jsonl', 'json', 'csv', 'parquet']) {
        const out = path.join(mkdtempSync(path.join(tmpdir(), 'mtrl-signal-')), 'local.jsonl');
        const file = path.join(root, `test/fixtures/datasets/training-data.${ext}`);
        const args = ['--data', file, '--rows', '2', '--group-size', '2', '--seed', '7', '--transcripts-out', out];
        const {
          code,
          err,
          out: report,
        } = await mtrl('signal', '--local', agent, ...args, '--store', mkdtempSync(path.join(tmpdir(), 'mtrl-store-')));
        assert.ok(code === 0 || code === 1, `${ext}: ${err}`);
        // One batch with a known policy pools no steps, played now or read back from the transcripts it kept.
        assert.doesNotMatch(report, /no known step/);
        if (ext === 'jsonl') assert.doesNotMatch((await mtrl('signal', out)).out, /no known step/);
        const rows = readFileSync(out, 'utf8')
          .trim()
          .split('\n')
          .map((l) => JSON.stringify((JSON.parse(l) as { task: { row: unknown } }).task.row));
        played.push([...new Set(rows)].sort());
      }
      assert.equal(played[0].length, 2);
      assert.deepEqual(played, Array(4).fill(played[0]));
      assert.match(signalCommand.usage, /--data FILE +the dataset the agent plays \(JSON Lines, JSON, CSV or Parquet/);
    });

    it('a hard-coded host exits 1 naming the line; missing --data or a bad --rows is a usage sentence', async () => {
      const hard = path.join(root, 'test/fixtures/signal/hardcoded_agent.py');
      const store = mkdtempSync(path.join(tmpdir(), 'mtrl-signal-store-'));
      const { code, out } = await mtrl('signal', '--local', hard, '--data', data, '--rows', '1', '--group-size', '2', '--store', store);
      assert.equal(code, 1);
      assert.match(
        out,
        /^No model call arrived from the agent: it ignores the payload's endpoint\. hardcoded_agent\.py:\d+ fixes the host/,
      );
      const kept = JSON.parse((await mtrl('signal', '--check', '--store', store, '--json')).out) as {
        status: string;
        error: string;
        rollouts: string;
      }[];
      assert.equal(kept[0].status, 'failed');
      assert.match(kept[0].error, /ignores the payload's endpoint/);
      // Without --transcripts-out the rollouts are kept beside the check, for the board.
      assert.equal(path.dirname(kept[0].rollouts), path.join(store, 'rollouts'));
      assert.match(readFileSync(kept[0].rollouts, 'utf8'), /"groupKey"/);
      // A reward named by its Lambda ARN:version is kept under that version, not read as a file.
      const arnStore = mkdtempSync(path.join(tmpdir(), 'mtrl-signal-store-'));
      const reward = 'arn:aws:lambda:us-east-1:111122223333:function:refund-reward:3';
      const byArn = await mtrl(
        'signal',
        '--local',
        hard,
        '--data',
        data,
        '--rows',
        '1',
        '--group-size',
        '2',
        '--reward',
        reward,
        '--store',
        arnStore,
      );
      assert.doesNotMatch(byArn.err, /not kept/, byArn.err);
      const keptByArn = JSON.parse((await mtrl('signal', '--check', '--store', arnStore, '--json')).out) as { key: { reward: string } }[];
      assert.equal(keptByArn[0]?.key.reward, reward);
      // A store that cannot be written loses nothing but the keeping: the report is printed, the sentence says why.
      const notAFolder = path.join(store, 'file');
      writeFileSync(notAFolder, '');
      const unkept = await mtrl('signal', '--local', hard, '--data', data, '--rows', '1', '--group-size', '2', '--store', notAFolder);
      assert.equal(unkept.code, 1);
      assert.match(unkept.out, /ignores the payload's endpoint/);
      assert.match(unkept.err, /^mtrl signal: the result was not kept: .*file/m);
      const noData = await mtrl('signal', '--local', agent, '--rows', '1', '--group-size', '2');
      assert.equal(noData.code, 2);
      assert.match(noData.err, /--local needs --data DATASET \(JSON Lines, JSON, CSV or Parquet\)/);
      const badRows = await mtrl('signal', '--local', agent, '--data', data, '--rows', 'x', '--group-size', '2');
      assert.match(badRows.err, /--rows takes a whole number ≥ 1, got 'x'/);
    });
  });
});
