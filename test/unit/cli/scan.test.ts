import { strict as assert } from 'node:assert';
import { mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { main } from '../../../src/cli';
import type { Transcript } from '../../../src/core/transcript/model';
import { seededTranscripts, SEEDED_COUNTS } from '../core/scan/seeded';
import { ceiling } from '../../host/lib/ceiling';

async function scan(...args: string[]) {
  const out: string[] = [];
  const err: string[] = [];
  const code = await main(['scan', ...args], { out: (t) => out.push(t), err: (t) => err.push(t), stdin: () => [] });
  return { code, out: out.join('\n'), err: err.join('\n') };
}

/** True while a process of that id exists (signal 0 only asks). */
function alive(pid: number): boolean {
  try {
    process.kill(pid, 0);
    return true;
  } catch {
    return false;
  }
}

/** A transcript as the agent's rollout record logs it (the pipeline's path, not saved transcripts). */
const record = (t: Transcript) =>
  JSON.stringify({
    mtrl_rollout: 1,
    trajectory_id: t.id,
    prompt: t.task.prompt,
    step: t.step,
    reward: t.reward,
    status: t.status,
    ...(t.error ? { error: t.error } : {}),
    turns: t.turns.map((turn) => ({
      text: turn.text,
      finish_reason: turn.finishReason,
      tool_calls: turn.toolCalls.map((c) => ({ name: c.name, arguments: c.arguments, result: c.result, error: c.error })),
    })),
  });

const counts = (json: string) =>
  Object.fromEntries((JSON.parse(json) as { findings: { kind: string; rollouts: number }[] }).findings.map((f) => [f.kind, f.rollouts]));

describe('mtrl scan', function () {
  this.timeout(ceiling(30_000));
  let dir: string;
  before(() => (dir = mkdtempSync(path.join(tmpdir(), 'mtrl-scan-'))));
  after(() => rmSync(dir, { recursive: true, force: true }));

  it('saved transcripts: every seeded kind with its exact count, exit 1 (auth-error is past its threshold)', async () => {
    const file = path.join(dir, 'seeded.jsonl');
    writeFileSync(
      file,
      seededTranscripts()
        .map((t) => JSON.stringify(t))
        .join('\n'),
    );
    const { code, out, err } = await scan(file, '--json');
    assert.equal(code, 1, err);
    assert.deepEqual(counts(out), SEEDED_COUNTS);
    for (const finding of JSON.parse(out).findings)
      assert.ok(
        ['kind', 'rollouts', 'share', 'steps', 'meanAdvantage', 'ids', 'example'].every((k) => k in finding),
        Object.keys(finding).join(),
      );
  });

  it('a log of rollout records: the same counts, and the text report names each kind', async () => {
    const file = path.join(dir, 'run.log');
    writeFileSync(file, seededTranscripts().map(record).join('\n'));
    const json = await scan(file, '--json');
    assert.deepEqual(counts(json.out), SEEDED_COUNTS);
    const { code, out } = await scan(file);
    assert.equal(code, 1);
    assert.match(out, /^Scanned 76 rollouts of .*run\.log: 9 kinds found, \d+ past their threshold\./);
    assert.match(out, /✗ auth-error: 3 rollouts \(3\.9 %; fails at any rollout\), below their groups/);
  });

  it('exit 0 when nothing is past its threshold; --threshold sets one kind', async () => {
    const file = path.join(dir, 'clean.jsonl');
    writeFileSync(
      file,
      seededTranscripts(40)
        .filter((t) => t.id.startsWith('clean') || t.id.startsWith('refusal'))
        .map((t) => JSON.stringify(t))
        .join('\n'),
    );
    assert.equal((await scan(file)).code, 1, 'refusal: 4 of 44 is past 5 %');
    assert.equal((await scan(file, '--threshold', 'refusal=10%')).code, 0);
    const bad = await scan(file, '--threshold', 'refusal');
    assert.equal(bad.code, 2);
    assert.match(bad.err, /kind=share/);
  });

  it("a user's Python scanner runs contained, its kinds counted beside the generic ones", async () => {
    const file = path.join(dir, 'seeded.jsonl');
    const scanner = path.join(dir, 'my_scan.py');
    writeFileSync(
      scanner,
      [
        'import os, subprocess',
        'def apology(transcript):',
        '    # A child it leaves behind must not outlive the run.',
        `    child = subprocess.Popen(["sleep", "300"], start_new_session=True)`,
        `    open(${JSON.stringify(path.join(dir, 'child.pid'))}, "a").write(f"{child.pid}\\n")`,
        '    for i, turn in enumerate(transcript["turns"]):',
        '        if "sorry" in (turn.get("text") or "").lower():',
        '            return [{"kind": "apology", "turn": i}]',
        '    return []',
      ].join('\n'),
    );
    const { code, out, err } = await scan(file, '--scanner', `${scanner}:apology`, '--json', '--timeout', '30');
    assert.equal(code, 1, err);
    const found = counts(out);
    // Sorry in 3 auth-error replies and 4 refusals.
    assert.equal(found.apology, 7);
    assert.equal(found['auth-error'], 3);
    const pids = readFileSync(path.join(dir, 'child.pid'), 'utf8').trim().split('\n').map(Number);
    assert.equal(pids.length, 76);
    assert.deepEqual(pids.filter(alive), []);
    const broken = path.join(dir, 'broken.py');
    writeFileSync(broken, 'def scan(transcript):\n    return transcript["nope"]\n');
    const failed = await scan(file, '--scanner', broken);
    assert.equal(failed.code, 2);
    assert.match(failed.err, /the scanner failed on 76 rollouts; the first, auth-error-0: KeyError: 'nope' \(.*broken\.py:2\)/);
  });

  it("a Wordle log with guesses that contradict earlier feedback shows the pack's kind", async () => {
    const file = path.join(dir, 'wordle.log');
    const game = (id: string, words: string[], reward: number) =>
      JSON.stringify({ mtrl_rollout: 1, trajectory_id: id, answer: 'crane', step: 1, turns: words.map((guess) => ({ guess })), reward });
    // SLATE leaves A green at 3 and E green at 5; MOUSY drops both and plays S (gray) again.
    writeFileSync(
      file,
      [game('w1', ['slate', 'mousy', 'crane'], 0.2), game('w2', ['slate', 'grace', 'crane'], 1), game('w3', ['slate', 'crane'], 1)].join(
        '\n',
      ),
    );
    const { out, err } = await scan(file, '--json');
    const finding = JSON.parse(out).findings.find((f: { kind: string }) => f.kind === 'ignores-feedback');
    assert.ok(finding, out + err);
    assert.deepEqual(finding.ids, ['w1']);
    assert.ok(finding.meanAdvantage < 0, String(finding.meanAdvantage));
  });

  it('no rollouts is an error (exit 2)', async () => {
    const file = path.join(dir, 'empty.log');
    writeFileSync(file, 'nothing here\n');
    assert.equal((await scan(file)).code, 2);
  });
});
