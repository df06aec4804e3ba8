import { strict as assert } from 'node:assert';
import { pipelineEvaluationOf } from '../../../../src/core/jobs/pipeline';

describe('SDK evaluation pipeline jobs', () => {
  it('reads the execution and the role from the names a real run shows (the step name cut to 20 characters)', () => {
    assert.deepEqual(pipelineEvaluationOf('pipelines-8hvze02od4o0-EvaluateBaseModel-prdIRv4hLK'), {
      execution: '8hvze02od4o0',
      step: 'EvaluateBaseModel',
      role: 'base',
    });
    assert.deepEqual(pipelineEvaluationOf('pipelines-8hvze02od4o0-EvaluateFineTunedMod-mwwrZNnd6y'), {
      execution: '8hvze02od4o0',
      step: 'EvaluateFineTunedMod',
      role: 'fine-tuned',
    });
  });

  it('falls back to ModelPackageConfig for a step of another name, and leaves user-named jobs alone', () => {
    const adapter = {
      EvaluationConfig: {},
      ModelPackageConfig: { InputModelPackageArn: 'arn:aws:sagemaker:us-west-2:1:model-package/x/1' },
    };
    assert.equal(pipelineEvaluationOf('pipelines-abc123-MyStep-XyZ', adapter)?.role, 'fine-tuned');
    assert.equal(pipelineEvaluationOf('pipelines-abc123-MyStep-XyZ', { EvaluationConfig: {} })?.role, 'base');
    assert.equal(pipelineEvaluationOf('pipelines-abc123-MyStep-XyZ')?.role, undefined);
    assert.equal(pipelineEvaluationOf('wordle-eval-base-gptoss20b'), undefined);
  });
});
