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
});
