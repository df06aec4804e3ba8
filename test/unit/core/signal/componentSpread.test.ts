import { strict as assert } from 'node:assert';
import { mkdtempSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { main } from '../../../../src/cli';
import { componentSignal } from '../../../../src/core/signal/componentSpread';
import { signalReport } from '../../../../src/core/signal/report';
import { signalView } from '../../../../src/core/signal/reportView';
import type { Transcript } from '../../../../src/core/transcript/model';

/** A support agent's rollouts as [outcome, shaping] per rollout, the reward their sum, reported in its metrics. */
const batch = (tasks: Record<string, [number, number][]>): Transcript[] =>
  Object.entries(tasks).flatMap(([task, parts]) =>
    parts.map(([outcome, shaping], i) => ({
      id: `${task}-${i}`,
      groupKey: task,
      reward: outcome + shaping,
      metrics: { outcome, shaping, note: 'text is not a component' },
      status: 'completed' as const,
      source: 'trace' as const,
      task: { prompt: task },
      turns: [],
    })),
  );

const tasks: Record<string, [number, number][]> = {
  // Every rollout stalls (outcome −0.5): only the shaping tells them apart.
  stalls: [
    [-0.5, 1.8],
    [-0.5, 0.3],
    [-0.5, 0.6],
    [-0.5, 0],
  ],
  // Half solve: the outcome separates them; the shaping is the same for all.
  splits: [
    [1, 0.1],
    [-0.5, 0.1],
    [1, 0.1],
    [-0.5, 0.1],
  ],
};

describe('learning signal: the spread per reward component', () => {
  it('counts the mean within-group std and flat share of each component, and the groups where only the shaping differs', () => {
    const signal = componentSignal(batch(tasks))!;
    const byName = Object.fromEntries(signal.components.map((c) => [c.name, c]));
    assert.deepEqual(Object.keys(byName), ['outcome', 'shaping'], 'text metrics are not components');
    // By hand: outcome std 0 (stalls) and 0.75 (splits); shaping std √0.466875 ≈ 0.6833 (stalls) and 0 (splits).
    assert.equal(byName.outcome.groups, 2);
    assert.ok(Math.abs(byName.outcome.meanWithinGroupSpread - 0.375) < 1e-9);
    assert.equal(byName.outcome.flatShare, 0.5);
    assert.ok(Math.abs(byName.shaping.meanWithinGroupSpread - Math.sqrt(0.466875) / 2) < 1e-9);
    assert.equal(byName.shaping.flatShare, 0.5);
    assert.equal(signal.outcomeTiedGroups, 1);
  });

  it('a group where a member does not report a component leaves it uncompared; no metrics, no components', () => {
    const some = batch({
      a: [
        [1, 0],
        [0, 0],
      ],
    });
    delete some[1].metrics;
    assert.equal(componentSignal(some), undefined);
    const report = signalReport(
      batch({
        a: [
          [1, 0],
          [0, 0],
        ],
      }).map((t) => ({ ...t, metrics: undefined })),
    );
    assert.equal(report.components, undefined);
  });

  it('the report and the editor show each component with the sentence on outcome ties', () => {
    const report = signalReport(batch(tasks));
    assert.deepEqual(
      report.components?.map((c) => c.name),
      ['outcome', 'shaping'],
    );
    const view = signalView({ title: 'support', status: 'done', report, hasRollouts: true });
    assert.equal(view.kind, 'report');
    if (view.kind !== 'report') return;
    const figure = view.figures.find((f) => f.label === 'Spread of shaping');
    assert.equal(figure?.value, '0.342');
    assert.match(figure?.hint ?? '', /flat in 50 % of 2 tasks/);
    assert.ok(
      view.meaning.includes(
        'In 1 of 2 tasks every rollout has the same outcome and only shaping separates them: GRPO learns from that alone there.',
      ),
    );
  });

  it('mtrl signal prints a line per component and --json carries components[] and outcomeTiedGroups', async () => {
    const file = path.join(mkdtempSync(path.join(tmpdir(), 'mtrl-components-')), 'run.jsonl');
    writeFileSync(
      file,
      batch(tasks)
        .map((t) => JSON.stringify(t))
        .join('\n'),
    );
    const run = async (...args: string[]) => {
      const out: string[] = [];
      await main(args, { out: (t) => out.push(t), err: () => undefined, stdin: () => [] });
      return out.join('\n');
    };
    const text = await run('signal', file);
    assert.match(text, /^ {4}outcome 0\.375 \(flat in 50 % of 2 tasks\)$/m);
    assert.match(text, /^ {4}shaping 0\.342 \(flat in 50 % of 2 tasks\)$/m);
    assert.match(text, /^ {2}! In 1 of 2 tasks every rollout has the same outcome and only shaping separates them/m);
    const json = JSON.parse(await run('signal', file, '--json'));
    assert.deepEqual(
      json.components.map((c: { name: string; flatShare: number }) => [c.name, c.flatShare]),
      [
        ['outcome', 0.5],
        ['shaping', 0.5],
      ],
    );
    assert.equal(json.outcomeTiedGroups, 1);
  });
});
