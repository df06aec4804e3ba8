import { strict as assert } from 'node:assert';
import { parseScenarioFile, scenarioFromTranscript, scenarioTranscript, toolCallsOf, withScenario } from '../../../../src/core/reward';

const parse = (value: unknown) => parseScenarioFile(JSON.stringify(value));

describe('reward scenarios: the *.mtrl-reward.json file', () => {
  it('reads the class form, the short and long tool-call forms and the default task', () => {
    const { file, problems } = parse({
      reward: { file: 'env.py', class: 'Env', tools: { act: { method: 'apply', arguments: ['action'] }, look: 'inspect' } },
      task: { prompt: 'fix it', id: 7 },
      scenarios: { ideal: [{ act: { action: 'a' } }, { name: 'look', arguments: '{"x": 1}' }], none: { tool_calls: [] } },
      expect: ['ideal > none'],
    });
    assert.deepEqual(problems, []);
    assert.equal(file!.reward.form, 'class');
    assert.deepEqual(file!.reward.form === 'class' && file!.reward.tools, {
      act: { method: 'apply', arguments: ['action'] },
      look: { method: 'inspect', arguments: 'keywords' },
    });
    const ideal = file!.scenarios.find((s) => s.name === 'ideal')!;
    assert.deepEqual(ideal.task, { prompt: 'fix it', row: { prompt: 'fix it', id: 7 } });
    assert.deepEqual(
      toolCallsOf(scenarioTranscript(ideal)).map((c) => c.name),
      ['act', 'look'],
    );
    assert.equal(ideal.turns.length, 2, 'one tool call a turn');
    assert.deepEqual(file!.invariants, [
      'finished-beats-unfinished',
      'fewer-turns-no-worse',
      'nothing-scores-lowest',
      'outcome-decides-order',
      'shaping-is-bounded',
    ]);
  });

  it('names every problem with its path instead of throwing', () => {
    const { file, problems } = parse({
      reward: { file: 'env.py', class: 'Env', tools: { act: {} } },
      scenarios: { 'bad name!': [{ a: 1, b: 2 }], ok: 'x' },
      expect: 'ideal > x',
      invariants: ['made-up'],
    });
    assert.equal(file, undefined);
    const paths = problems.map((p) => p.path);
    for (const p of ['reward.tools.act', 'scenarios.bad name!', 'scenarios.bad name!.tool_calls.0', 'scenarios.ok', 'expect', 'invariants'])
      assert.ok(paths.includes(p), `${p} in ${paths.join(', ')}`);
    assert.match(parseScenarioFile('{').problems[0].message, /^Not valid JSON/);
    assert.match(parse([]).problems[0].message, /JSON object with "reward" and "scenarios"/);
  });

  it('a scenario without any task is a problem, not a crash', () => {
    const { problems } = parse({ reward: { file: 'r.py', function: 'reward' }, scenarios: { a: [] } });
    assert.match(problems[0].message, /No task for this scenario/);
  });
});

describe('reward scenarios: saved from a real rollout', () => {
  const rollout = {
    id: 't1',
    groupKey: 'g',
    status: 'completed' as const,
    source: 'trace' as const,
    solved: false,
    task: { prompt: 'Resolve the outage', row: { prompt: 'Resolve the outage', id: 3 } },
    turns: [
      { thinking: 'first', toolCalls: [{ name: 'take_support_action', arguments: '{"action": "check_outage"}', result: '{"ok": true}' }] },
      { toolCalls: [{ name: 'take_support_action', arguments: '{"action": "close_ticket"}' }] },
    ],
  };

  it('keeps the task row and the tool calls with parsed arguments, and reads back as the same scenario', () => {
    const scenario = scenarioFromTranscript(rollout);
    assert.deepEqual(scenario, {
      task: { prompt: 'Resolve the outage', id: 3 },
      tool_calls: [
        { name: 'take_support_action', arguments: { action: 'check_outage' } },
        { name: 'take_support_action', arguments: { action: 'close_ticket' } },
      ],
      finished: false,
    });
    const file = withScenario('{\n  "reward": {"file": "env.py", "function": "reward"},\n  "scenarios": {}\n}', 'from-board', scenario);
    assert.ok('text' in file);
    const parsed = parseScenarioFile(file.text);
    assert.deepEqual(parsed.problems, []);
    assert.deepEqual(
      toolCallsOf(scenarioTranscript(parsed.file!.scenarios[0])).map((c) => c.arguments),
      [{ action: 'check_outage' }, { action: 'close_ticket' }],
    );
  });

  it('never overwrites: a taken name or a file that is not JSON is refused with the reason', () => {
    const text = JSON.stringify({ reward: { file: 'a.py', function: 'r' }, scenarios: { ideal: [] } });
    assert.deepEqual(withScenario(text, 'ideal', {}), { problem: "A scenario named 'ideal' exists already: pick another name." });
    assert.match((withScenario('{ nope', 'x', {}) as { problem: string }).problem, /not valid JSON/);
    assert.match((withScenario(text, 'bad name', {}) as { problem: string }).problem, /letters, digits/);
  });
});
