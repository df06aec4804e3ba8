import { strict as assert } from 'node:assert';
import { Readable } from 'node:stream';
import { parseRolloutLine, prepareTranscripts, RolloutCollector } from '../../../../src/core/rollouts';
import { readRollouts, streamReader } from '../../../../src/services/rollouts';
import type { Transcript } from '../../../../src/core/transcript/model';
import { wordleView, type WordleView } from './wordleView';
import { WordleGame } from '../../../../src/core/environments/wordle';

const record = {
  mtrl_rollout: 1,
  trajectory_id: 'r1',
  job_arn: 'arn:aws:sagemaker:us-east-1:111122223333:job/AgentRFT/j',
  row_id: 'wordle_train_0001',
  answer: 'crane',
  turns: [
    { guess: 'slate', source: 'tool' },
    { guess: 'xx', valid: false, source: 'tool' },
    { guess: 'crane', marks: 'GGGGG', source: 'text' },
  ],
  solved: true,
  reward: 1.279,
  outcome: 1.25,
  shaping: 0.72,
};
const bare = JSON.stringify(record);

function only(line: string): WordleView {
  const items = parseRolloutLine(line);
  assert.equal(items.length, 1, `one item from ${line.slice(0, 80)}`);
  assert.equal(items[0].kind, 'transcript');
  return wordleView((items[0] as { transcript: Transcript }).transcript);
}

function collect(lines: string[]): WordleView[] {
  const c = new RolloutCollector();
  for (const l of lines) c.add(l);
  return c.finish().map(wordleView);
}

describe('parseRolloutLine', () => {
  it('reads a bare record, recomputing absent marks from the answer', () => {
    const r = only(bare);
    assert.equal(r.trajectory_id, 'r1');
    assert.equal(r.row_id, 'wordle_train_0001');
    assert.deepEqual(
      r.turns.map((t) => t.marks),
      ['XXGXG', undefined, 'GGGGG'],
    );
    assert.deepEqual(
      r.turns.map((t) => t.valid),
      [true, false, true],
    );
    assert.deepEqual(
      r.turns.map((t) => t.source),
      ['tool', 'tool', 'text'],
    );
    assert.equal(r.reward, 1.279);
    assert.equal(r.outcome, 1.25);
    assert.equal(r.shaping, 0.72);
  });

  it("keeps a record's own fields and reward parts: metrics from outcome and shaping only when it gives none", () => {
    const transcriptOf = (line: object) => (parseRolloutLine(JSON.stringify(line))[0] as { transcript: Transcript }).transcript;
    const whole = transcriptOf(record);
    assert.deepEqual(whole.metrics, { outcome: 1.25, shaping: 0.72 });
    assert.deepEqual(whole.fields, { answer: 'crane', solved: true, outcome: 1.25, shaping: 0.72 });
    const plain = transcriptOf({ mtrl_rollout: 1, trajectory_id: 'r2', reward: 0.5, turns: [] });
    assert.equal(plain.metrics, undefined);
    assert.equal(plain.fields, undefined);
    assert.deepEqual(transcriptOf({ mtrl_rollout: 1, reward: 0.5, shaping: Infinity, outcome: 0.4 }).metrics, { outcome: 0.4 });
    const own = transcriptOf({ mtrl_rollout: 1, reward: 0.5, outcome: 0.4, metrics: { accuracy: 1 } });
    assert.deepEqual(own.metrics, { accuracy: 1 });
  });

  it('reads a record after a timestamp and level prefix', () => {
    assert.equal(only(`2026-11-29 10:00:01,123 INFO main: ${bare}`).answer, 'crane');
  });

  it('reads a record inside an AgentCore JSON log line message', () => {
    const line = JSON.stringify({
      timestamp: '2026-11-29T10:00:01Z',
      level: 'INFO',
      message: bare,
      logger: 'main',
      requestId: 'q1',
      sessionId: 's1',
    });
    assert.equal(only(line).reward, 1.279);
  });

  it('reads every record of a CloudWatch export, one-line and pretty-printed', () => {
    const events = {
      events: [
        { timestamp: 1, message: bare },
        { timestamp: 2, message: `INFO ${JSON.stringify({ ...record, trajectory_id: 'r2' })}` },
      ],
      searchedLogStreams: [],
    };
    assert.deepEqual(
      parseRolloutLine(JSON.stringify(events)).map((i) => (i.kind === 'transcript' ? i.transcript.id : i.kind)),
      ['r1', 'r2'],
    );
    const pretty = JSON.stringify(events, null, 4).split('\n');
    assert.deepEqual(
      collect(pretty).map((r) => r.trajectory_id),
      ['r1', 'r2'],
    );
  });

  it('reads `aws logs tail` text lines', () => {
    assert.equal(only(`2026-11-29T10:00:01.123000+00:00 2026/11/29/[runtime-logs]abc123 ${bare}`).trajectory_id, 'r1');
  });

  it('flags repeated guesses and treats non-words as invalid', () => {
    const r = only(JSON.stringify({ ...record, turns: [{ guess: 'slate' }, { guess: 'slate' }, { guess: 'sl8te' }] }));
    assert.deepEqual(
      r.turns.map((t) => [t.valid, t.repeated ?? false]),
      [
        [true, false],
        [false, true],
        [false, false],
      ],
    );
  });

  it('never throws on garbage and yields nothing for it', () => {
    for (const line of [
      '',
      '{',
      '}',
      '{"mtrl_rollout": 1}',
      '{"mtrl_rollout":1,"trajectory_id":"x","reward":"high"}',
      'null',
      '[1,2]',
      '\u0000\uffff',
      'INFO {not json}',
      '"message": 3',
      'UpdateReward: trajectory_id=x rewards=[high]',
      `{"message": ${JSON.stringify('{"events": 5}')}}`,
    ]) {
      assert.deepEqual([...parseRolloutLine(line)], [], line);
    }
  });
});

describe('fallback rebuild without records', () => {
  it('gives reward-only rollouts from UpdateReward lines', () => {
    const rollouts = collect([
      'INFO sagemaker.train.rft: CompleteRollout: trajectory_id=a1 status=ready',
      'INFO sagemaker.train.rft: UpdateReward: trajectory_id=a1 rewards=[1.279]',
      'UpdateReward: trajectory_id=a2 rewards=[-0.5]',
    ]);
    assert.deepEqual(
      rollouts.map((r) => [r.trajectory_id, r.reward, r.rebuilt]),
      [
        ['a1', 1.279, true],
        ['a2', -0.5, true],
      ],
    );
  });

  it('rebuilds turns from tool feedback text and pairs them with the next reward', () => {
    const won = new WordleGame('crane');
    const lost = new WordleGame('ghost');
    const lines = [
      ...['slate', 'xx', 'slate', 'crane'].flatMap((g) => won.guess(g).feedback.split('\n')),
      'UpdateReward: trajectory_id=w1 rewards=[1.45]',
      ...['crane', 'slate', 'plumb', 'beach', 'riser', 'lemon'].flatMap((g) => lost.guess(g).feedback.split('\n')),
      'UpdateReward: trajectory_id=l1 rewards=[-0.5]',
    ];
    const [a, b] = collect(lines);
    assert.equal(a.trajectory_id, 'w1');
    assert.equal(a.answer, 'crane');
    assert.equal(a.solved, true);
    assert.deepEqual(
      a.turns.map((t) => [t.guess, t.valid, t.repeated ?? false, t.marks]),
      [
        ['slate', true, false, 'XXGXG'],
        ['xx', false, false, undefined],
        ['slate', false, true, undefined],
        ['crane', true, false, 'GGGGG'],
      ],
    );
    assert.equal(b.trajectory_id, 'l1');
    assert.equal(b.answer, 'ghost', 'the loss line names the answer');
    assert.equal(b.solved, false);
    assert.equal(b.turns.length, 6);
    assert.equal(b.reward, -0.5);
  });

  it('keeps interleaved AgentCore sessions apart', () => {
    const wrap = (message: string, sessionId: string) =>
      JSON.stringify({ timestamp: 't', level: 'INFO', message, logger: 'main', sessionId });
    const rollouts = collect([
      wrap('Guess 1/6: SLATE -> S=gray, L=gray, A=green, T=gray, E=green', 's1'),
      wrap('Guess 1/6: PLUMB -> P=gray, L=gray, U=gray, M=gray, B=gray', 's2'),
      wrap('Guess 2/6: CRANE — all green. Correct, you solved it!', 's1'),
      wrap('UpdateReward: trajectory_id=x1 rewards=[1.5]', 's1'),
    ]);
    assert.deepEqual(
      rollouts.map((r) => [r.trajectory_id, r.turns.map((t) => t.guess).join(' ')]),
      [
        ['x1', 'slate crane'],
        ['rebuilt-1', 'plumb'],
      ],
    );
  });

  it('any agent: the SDK lines give reward, status and error; solved is reward ≥ the success threshold', () => {
    const c = new RolloutCollector();
    for (const line of [
      'INFO sagemaker.train.rft: CompleteRollout: trajectory_id=s1 status=ready',
      'INFO sagemaker.train.rft: UpdateReward: trajectory_id=s1 rewards=[1.0]',
      'ERROR sagemaker.train.rft: Rollout error: trajectory_id=s2 error=tool timed out',
      'INFO sagemaker.train.rft: CompleteRollout: trajectory_id=s2 status=failed',
      'INFO sagemaker.train.rft: UpdateReward: trajectory_id=s2 rewards=[0.0]',
      'INFO sagemaker.train.rft: UpdateReward: trajectory_id=s3 rewards=[0.25, 0.5]',
    ])
      c.add(line);
    const rollouts = prepareTranscripts(c.finish());
    assert.deepEqual(
      rollouts.map((r) => [r.id, r.reward, r.status, r.error, r.solved, r.env?.pack]),
      [
        ['s1', 1, 'completed', undefined, true, undefined],
        ['s2', 0, 'error', 'tool timed out', false, undefined],
        ['s3', 0.75, 'completed', undefined, false, undefined],
      ],
    );
    assert.deepEqual(
      prepareTranscripts(rollouts, { successThreshold: 0.7 }).map((r) => r.solved),
      [true, false, true],
      "the job's success_threshold decides",
    );
  });

  it("reads the SDK's 404 warnings as a result the service did not record, and its 'skipping' warnings without undoing an ending", () => {
    const c = new RolloutCollector();
    for (const line of [
      'INFO sagemaker.train.rft.feedback: CompleteRollout: trajectory_id=n1 status=ready',
      'WARNING sagemaker.train.rft.feedback: CompleteRollout 404: trajectory n1 not found',
      'INFO sagemaker.train.rft.feedback: UpdateReward: trajectory_id=n1 rewards=[1.0]',
      'WARNING sagemaker.train.rft.feedback: UpdateReward 404: trajectory n1 not found',
      'INFO sagemaker.train.rft.feedback: CompleteRollout: trajectory_id=k1 status=ready',
      'INFO sagemaker.train.rft.feedback: UpdateReward: trajectory_id=k1 rewards=[0.5]',
      'WARNING sagemaker.train.rft.feedback: CompleteRollout: trajectory k1 already in terminal status, skipping',
      'WARNING sagemaker.train.rft.feedback: UpdateReward: trajectory k2 already in terminal status, skipping',
      'INFO sagemaker.train.rft.feedback: UpdateReward: trajectory_id=k2 rewards=[0.0]',
    ])
      c.add(line);
    const rollouts = prepareTranscripts(c.finish());
    assert.deepEqual(
      rollouts.map((r) => [r.id, r.reward, r.status]),
      [
        ['n1', 1, 'error'],
        ['k1', 0.5, 'completed'],
        ['k2', 0, 'skipped'],
      ],
    );
    assert.match(rollouts[0].error ?? '', /^UpdateReward 404: the Job Runtime did not know trajectory n1, so its result was not recorded/);
    assert.deepEqual(
      parseRolloutLine('WARNING x: CompleteRollout 404: trajectory t-9 not found').map((l) => l.kind),
      ['status'],
    );
  });

  it('ignores SDK lines once records are present (no duplicates)', () => {
    const rollouts = collect([bare, 'UpdateReward: trajectory_id=r1 rewards=[1.279]']);
    assert.equal(rollouts.length, 1);
  });
});

describe('a byte stream read through the one read loop (readRollouts)', () => {
  it('streams byte chunks split mid-line and mid-character', async () => {
    const text = `${bare}\n${JSON.stringify({ ...record, trajectory_id: 'é2' })}\r\ngarbage\n`;
    const bytes = Buffer.from(text, 'utf8');
    const chunks = [bytes.subarray(0, 10), bytes.subarray(10, bytes.indexOf(0xc3) + 1), bytes.subarray(bytes.indexOf(0xc3) + 1)];
    const rollouts = await readRollouts(
      streamReader(async () => Readable.from(chunks)),
      new AbortController().signal,
    );
    assert.deepEqual(
      rollouts.map((r) => r.id),
      ['r1', 'é2'],
    );
  });

  it("keeps an UpdateReward of Python's nan or inf as that number, for the reward rule to name where rollouts are reported", () => {
    const [nan] = [...parseRolloutLine('UpdateReward: trajectory_id=x rewards=[nan]')];
    assert.ok(nan.kind === 'reward' && Number.isNaN(nan.reward));
    assert.deepEqual(
      [...parseRolloutLine('UpdateReward: trajectory_id=x rewards=[-inf]')].map((e) => e.kind === 'reward' && e.reward),
      [-Infinity],
    );
  });
});
