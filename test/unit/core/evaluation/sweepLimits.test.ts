import { strict as assert } from 'node:assert';
import { costConfirmation, parseSweep, sweepEstimate } from '../../../../src/core/evaluation/sweep';
import { MAX_SWEEP_RUNS, runCount } from '../../../../src/core/evaluation/sweepLimits';
import { SWEEP } from './sweepFixture';

const messages = (file: unknown) => parseSweep(JSON.stringify(file)).problems.map((p) => p.message);

describe('sweep limits', () => {
  it('refuses a small file that would expand to a million runs, without expanding it', () => {
    const values = Array.from({ length: 16 }, (_, i) => String(i));
    const file = {
      ...SWEEP,
      models: [{ label: 'base' }, { label: 'a', trainingJob: 'x' }, { label: 'b', trainingJob: 'y' }, { label: 'c', trainingJob: 'z' }],
      grid: { temperature: values, sampling_top_p: values, sampling_max_tokens: values, eval_group_size: values, pass_k_values: values },
    };
    assert.equal(runCount(file), 4 * 2 * 16 ** 5);
    const started = process.hrtime.bigint();
    const problems = messages(file);
    assert.ok(Number(process.hrtime.bigint() - started) / 1e6 < 200, 'counted, not listed');
    assert.ok(
      problems.some(
        (m) => m === `The sweep makes 8,388,608 runs; a sweep file may make at most 1,000. Split it, or shorten the grid lists.`,
      ),
    );
    assert.ok(runCount(SWEEP) <= MAX_SWEEP_RUNS);
  });

  it('finds duplicate grid values, non-object hyperparameters and resources in another region', () => {
    const problems = messages({
      ...SWEEP,
      grid: { temperature: ['1.0', '1.0'] },
      hyperparameters: 'abc',
      runtimes: [{ label: 'w', runtimeArn: 'arn:aws:bedrock-agentcore:us-west-2:111122223333:runtime/a-1' }],
    });
    assert.ok(problems.includes('grid.temperature lists "1.0" twice: two runs would share one job name.'), problems.join('\n'));
    assert.ok(problems.includes('hyperparameters must be an object of strings, e.g. { "max_turns": "6" }.'));
    assert.ok(problems.some((m) => m.startsWith('runtimes[0].runtimeArn is in us-west-2, but the sweep runs in us-east-1')));
    assert.ok(messages({ ...SWEEP, region: 'mars-1' }).some((m) => m.startsWith('region "mars-1" is not an AWS region')));
  });

  it('estimates from the lists as listing the runs did, and asks before a costly start', () => {
    assert.deepEqual(sweepEstimate({ ...SWEEP, grid: { temperature: ['1.0', '0.6'], eval_group_size: ['1', '4'] } }), {
      runs: 16,
      hours: 40,
      cost: [24, 72],
    });
    assert.equal(costConfirmation(SWEEP), undefined);
    const big = { ...SWEEP, grid: { temperature: ['1.0', '0.6', '0.3'], eval_group_size: ['8', '16'] } };
    assert.match(
      costConfirmation(big) ?? '',
      /^Start sweep wordle-eval\? 24 evaluations, .*\$172\.80–\$518\.40 in tokens: above the \$100/,
    );
  });
});
