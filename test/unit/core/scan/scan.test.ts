import { strict as assert } from 'node:assert';
import { prepareTranscripts } from '../../../../src/core/rollouts/prepare';
import { scanRollout, scanTranscripts, SCAN_DEFAULTS, parseThreshold, type ScanFinding } from '../../../../src/core/scan';
import type { Transcript } from '../../../../src/core/transcript/model';
import { clean, seededTranscripts, SEEDED_COUNTS, SEEDS } from './seeded';

const counts = (findings: readonly ScanFinding[]) => Object.fromEntries(findings.map((f) => [f.kind, f.rollouts]));

describe('rollout scan', () => {
  it('finds every seeded kind with its exact count and marks no clean rollout', () => {
    const result = scanTranscripts(seededTranscripts());
    assert.deepEqual(counts(result.findings), SEEDED_COUNTS);
    const marked = new Set(result.findings.flatMap((f) => f.ids));
    assert.deepEqual(
      [...marked].filter((id) => id.startsWith('clean')),
      [],
    );
    for (const f of result.findings)
      assert.ok(
        f.ids.every((id) => id.startsWith(`${f.kind}-`)),
        `${f.kind}: ${f.ids.join(', ')}`,
      );
  });

  it('reports only the more specific kind where one explains another on the same rollout', () => {
    const kinds = (t: Transcript) => scanRollout(t, SCAN_DEFAULTS).map((m) => m.kind);
    // An auth error that ended in an error status, an invalid tool whose result is an error, a call as the last text.
    assert.deepEqual(kinds({ ...SEEDS['auth-error']('a', 1), status: 'error' }), ['auth-error']);
    assert.deepEqual(kinds(SEEDS['invalid-tool']('b', 1)), ['invalid-tool']);
    assert.deepEqual(kinds(SEEDS['tool-call-as-text']('c', 1)), ['tool-call-as-text']);
    assert.deepEqual(kinds(SEEDS['no-final-answer']('d', 1)), ['no-final-answer']);
  });

  it('knows tools the agent offers and calls written as a line or JSON', () => {
    const offered = { ...clean('e', 1), fields: { tools: [{ type: 'function', function: { name: 'search_kb' } }, 'refund'] } };
    assert.deepEqual(scanRollout(offered, SCAN_DEFAULTS), []);
    const lookup = { ...clean('f', 1), fields: { tools: ['search_kb'] } };
    assert.deepEqual(
      scanRollout(lookup, SCAN_DEFAULTS).map((m) => [m.kind, m.turn]),
      [['invalid-tool', 2]],
    );
    const line = { ...clean('g', 1), turns: [...clean('g', 1).turns.slice(0, 3), { text: 'search_kb("refund window")', toolCalls: [] }] };
    assert.deepEqual(
      scanRollout(line, SCAN_DEFAULTS).map((m) => m.kind),
      ['tool-call-as-text'],
    );
    const json = { ...clean('h', 1), turns: [{ text: 'Sure.\n```json\n{"tool": "refund", "args": {"order": 1}}\n```', toolCalls: [] }] };
    assert.deepEqual(
      scanRollout(json, SCAN_DEFAULTS).map((m) => m.kind),
      ['tool-call-as-text'],
    );
  });

  it('reads results given as objects: a status 403 with its message is an auth error', () => {
    const denied = {
      ...clean('j', 1),
      turns: [
        { toolCalls: [{ name: 'refund', arguments: {}, result: { status: 403, message: 'Forbidden' } }] },
        ...clean('j', 1).turns.slice(3),
      ],
    };
    assert.deepEqual(
      scanRollout(denied, SCAN_DEFAULTS).map((m) => m.kind),
      ['auth-error'],
    );
  });

  it('repeated-call takes its count from the settings', () => {
    assert.deepEqual(
      scanRollout(clean('i', 1), { repeatedCalls: 2 }).map((m) => m.kind),
      ['repeated-call'],
    );
  });

  it('ties each finding to the advantage of the rollouts it marks within their groups', () => {
    const group = (id: string, reward: number, t: Transcript) => ({ ...t, id, reward, groupKey: 'g', step: 1 });
    const result = scanTranscripts([
      group('a', 1, clean('a', 1)),
      group('b', 1, clean('b', 1)),
      group('c', 0, SEEDS.refusal('c', 1)),
      group('d', 0, SEEDS.refusal('d', 1)),
    ]);
    const [refusal] = result.findings;
    assert.equal(refusal.kind, 'refusal');
    // Rewards 1, 1, 0, 0: mean 0.5, std 0.5, each refusal at −1 (within 1e-6).
    assert.ok(Math.abs(refusal.meanAdvantage! + 1) < 1e-5, String(refusal.meanAdvantage));
  });

  it('says the step a kind began rising: 0 % until step 30, 14 % at step 60', () => {
    const rollouts: Transcript[] = [];
    for (let step = 10; step <= 60; step += 10)
      for (let i = 0; i < 50; i++) {
        const seeded = step >= 30 && i < (step === 60 ? 7 : 2);
        const id = `s${step}-${i}`;
        rollouts.push({ ...(seeded ? SEEDS['tool-call-as-text'](id, step) : clean(id, step)), groupKey: `|${step}|t${i % 10}` });
      }
    const [finding] = scanTranscripts(rollouts).findings;
    assert.equal(finding.kind, 'tool-call-as-text');
    assert.equal(finding.began, 30);
    assert.equal(finding.trend, '0 % until step 30, 14 % at step 60');
    assert.deepEqual(
      finding.steps.map((s) => s.marked),
      [0, 0, 2, 2, 2, 7],
    );
  });

  it('fails past a threshold: any rollout for auth-error and error-status, 5 % for the others', () => {
    const result = scanTranscripts(seededTranscripts(400));
    const above = Object.fromEntries(result.findings.map((f) => [f.kind, f.above]));
    assert.equal(above['auth-error'], true);
    assert.equal(above['error-status'], true);
    assert.equal(above['repeated-call'], false);
    const strict = scanTranscripts(seededTranscripts(400), {
      ...SCAN_DEFAULTS,
      thresholds: { ...SCAN_DEFAULTS.thresholds, 'repeated-call': 0.01 },
    });
    assert.equal(strict.findings.find((f) => f.kind === 'repeated-call')!.above, true);
    assert.deepEqual(parseThreshold('tool-error=10%'), { kind: 'tool-error', value: 0.1 });
    assert.match(parseThreshold('tool-error') as string, /kind=share/);
  });

  it('the result is plain data (JSON round trip keeps it)', () => {
    const result = scanTranscripts(seededTranscripts());
    assert.deepEqual(JSON.parse(JSON.stringify(result)), result);
  });

  it("a pack adds its own kind: Wordle's guess that contradicts earlier feedback", () => {
    const game = (id: string, words: string[]): Transcript => ({
      id,
      task: { prompt: 'Play Wordle' },
      groupKey: '',
      step: 1,
      status: 'completed',
      reward: 0,
      source: 'record',
      fields: { answer: 'crane' },
      turns: words.map((guess) => ({ toolCalls: [{ name: 'guess_word', arguments: { guess } }] })),
    });
    // SLATE shows A green at 3 and E green at 5; MOUSY drops both and plays S (gray) again.
    const rollouts = prepareTranscripts([
      game('w1', ['slate', 'mousy']),
      game('w2', ['slate', 'grace', 'crane']),
      game('w3', ['slate', 'crane']),
    ]);
    const result = scanTranscripts(rollouts);
    const finding = result.findings.find((f) => f.kind === 'ignores-feedback');
    assert.ok(finding, JSON.stringify(result.findings.map((f) => f.kind)));
    assert.deepEqual(finding.ids, ['w1']);
    assert.equal(finding.example.turn, 1);
  });
});
