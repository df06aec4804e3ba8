import assert from 'node:assert/strict';
import { orderedKeys, stepRows, stepRowsCsv } from '../../../../src/core/metrics/table';
import { parseMlflowArn } from '../../../../src/core/metrics/mlflow';

const point = (key: string, step: number, value: number) => ({ key, step, value, timestamp: 1000 * step });

describe('metrics tables', () => {
  it('joins histories by step; validation steps show only where logged', () => {
    const rows = stepRows({
      'rollout/reward/mean': [point('r', 1, 0.1), point('r', 2, 0.3)],
      'val/reward/pass_at_1': [point('v', 0, 0.02), point('v', 2, 0.31)],
    });
    assert.deepEqual(rows, [
      { step: 0, 'val/reward/pass_at_1': 0.02 },
      { step: 1, 'rollout/reward/mean': 0.1 },
      { step: 2, 'rollout/reward/mean': 0.3, 'val/reward/pass_at_1': 0.31 },
    ]);
    assert.equal(
      stepRowsCsv(rows, ['rollout/reward/mean', 'val/reward/pass_at_1']),
      'step,rollout/reward/mean,val/reward/pass_at_1\n0,,0.02\n1,0.1,\n2,0.3,0.31\n',
    );
  });
  it('orders the headline keys first', () => {
    assert.deepEqual(orderedKeys(['z/a', 'timing_s/step', 'rollout/reward/mean', 'a/b']), [
      'rollout/reward/mean',
      'timing_s/step',
      'a/b',
      'z/a',
    ]);
  });
  it('parses app and tracking-server ARNs, nothing else', () => {
    assert.deepEqual(parseMlflowArn('arn:aws:sagemaker:us-west-2:111122223333:mlflow-app/app-X1'), {
      arn: 'arn:aws:sagemaker:us-west-2:111122223333:mlflow-app/app-X1',
      kind: 'app',
      region: 'us-west-2',
      account: '111122223333',
      id: 'app-X1',
    });
    assert.equal(parseMlflowArn('arn:aws:sagemaker:us-east-1:111122223333:mlflow-tracking-server/srv')?.kind, 'tracking-server');
    assert.equal(parseMlflowArn('arn:aws:sagemaker:us-east-1:111122223333:job/AgentRFT/x'), undefined);
  });
  it('keeps a metric named step or __proto__ as a column of its own, and neutralizes formula headers in CSV', () => {
    // As MLflow's JSON arrives: `__proto__` an own key, not the literal's prototype.
    const series = Object.fromEntries([
      ['step', [point('step', 1, 7)]],
      ['__proto__', [point('__proto__', 1, 8)]],
      ['=HYPERLINK("x")', [point('h', 1, 9)]],
    ]);
    const rows = stepRows(series);
    assert.equal(rows[0].step, 1);
    assert.equal(rows[0]['step (metric)'], 7);
    assert.equal(Object.getOwnPropertyDescriptor(rows[0], '__proto__')?.value, 8);
    assert.equal(Object.getPrototypeOf(rows[0]), Object.prototype);
    assert.equal(JSON.stringify(rows[0]), '{"step":1,"step (metric)":7,"__proto__":8,"=HYPERLINK(\\"x\\")":9}');
    assert.equal(
      stepRowsCsv(rows, ['step', '__proto__', '=HYPERLINK("x")']),
      `step,step (metric),__proto__,"'=HYPERLINK(""x"")"\n1,7,8,9\n`,
    );
  });
});
