import { strict as assert } from 'node:assert';
import { trainingArithmetic, describeTrainingArithmetic } from '../../../../src/core/jobs/arithmetic';
import {
  RESUME_STEP_TAG,
  RESUMED_FROM_TAG,
  resumeJobFile,
  resumeJobName,
  resumePointOf,
  resumeStepOf,
  resumeTitle,
} from '../../../../src/core/jobs/checkpoint';
import type { JobFile } from '../../../../src/core/jobs/jobfile';
import { meetsMlflowMinimum, mlflowVersionNote } from '../../../../src/core/jobs/mlflowVersion';
import { checkQuota } from '../../../../src/core/jobs/quotas';
import { jobTooltip } from '../../../../src/core/jobs/tooltip';
import { DEFAULT_PRICING } from '../../../../src/core/jobs/pricing';

const CHECKPOINT = 'arn:aws:sagemaker:us-east-1:111122223333:model-package/run-checkpoints/4';

describe('resume points, resumed job files and the remaining steps', () => {
  it('reads ResumableCheckpoint as an object or a bare ARN; the step from it, else from ProgressInfo', () => {
    const progress = { MaxSteps: 10, CurrentStep: 4 };
    assert.deepEqual(
      resumePointOf('AgentRFT', 'Stopped', { ResumableCheckpoint: { ModelPackageArn: CHECKPOINT, Step: 4 }, ProgressInfo: progress }),
      { point: { checkpointArn: CHECKPOINT, step: 4, totalSteps: 10 } },
    );
    assert.deepEqual(
      resumePointOf('AgentRFT', 'Failed', { ResumableCheckpoint: CHECKPOINT, ModelCheckpoint: 'arn:m', ProgressInfo: progress }),
      {
        point: { checkpointArn: CHECKPOINT, step: 4, totalSteps: 10, modelCheckpointArn: 'arn:m' },
      },
    );
  });

  it('says why a job cannot resume: running, completed, an evaluation, no checkpoint, no step', () => {
    const problem = (category: string, status: string, output = {}) => {
      const found = resumePointOf(category, status, output);
      return 'problem' in found ? found.problem : 'resumable';
    };
    assert.match(problem('AgentRFT', 'InProgress'), /is InProgress; only a stopped or failed training job/);
    assert.match(problem('AgentRFT', 'Completed'), /is Completed/);
    assert.match(problem('AgentRFTEvaluation', 'Stopped'), /evaluation keeps no checkpoint/);
    assert.match(problem('AgentRFT', 'Stopped'), /no resumable checkpoint/);
    assert.match(problem('AgentRFT', 'Stopped', { ResumableCheckpoint: CHECKPOINT }), /not the step/);
  });

  it('the resumed file keeps the document, sets the checkpoint and tags where it came from; its name is free', () => {
    const original: JobFile = {
      JobName: 'run',
      JobCategory: 'AgentRFT',
      Region: 'us-east-1',
      RoleArn: 'arn:aws:iam::111122223333:role/R',
      JobConfigSchemaVersion: '1.0.0',
      JobConfigDocument: {
        TrainingConfig: { BaseModelArn: 'arn:base', HyperParameters: { max_steps: '10' } },
        ModelPackageConfig: { OutputModelPackageGroupArn: 'arn:group' },
      },
      Tags: [{ Key: 'project', Value: 'wordle' }],
    };
    const resumed = resumeJobFile(original, { checkpointArn: CHECKPOINT, step: 4 }, 'run-resume-4');
    assert.deepEqual(resumed.JobConfigDocument.ModelPackageConfig, {
      OutputModelPackageGroupArn: 'arn:group',
      InputModelPackageArn: CHECKPOINT,
    });
    assert.deepEqual(resumed.JobConfigDocument.TrainingConfig, original.JobConfigDocument.TrainingConfig, 'max_steps stays 10');
    assert.deepEqual(resumed.Tags, [
      { Key: 'project', Value: 'wordle' },
      { Key: RESUMED_FROM_TAG, Value: 'run' },
      { Key: RESUME_STEP_TAG, Value: '4' },
    ]);
    assert.equal(resumeStepOf(resumed), 4);
    assert.equal(resumeStepOf(original), undefined);
    assert.equal(resumeStepOf({ ...resumed, JobCategory: 'AgentRFTEvaluation' }), undefined);
    assert.equal(resumeJobName('run', 4, new Set()), 'run-resume-4');
    assert.equal(resumeJobName('run-resume-4', 7, new Set()), 'run-resume-7', 'a resumed job resumed again');
    assert.equal(resumeJobName('run', 4, new Set(['run-resume-4', 'run-resume-4-2'])), 'run-resume-4-3');
    assert.ok(resumeJobName('x'.repeat(63), 4, new Set()).length <= 63);
    assert.equal(resumeTitle({ step: 4 }), 'Resume from Step 4');
  });

  it("the Jobs view's tooltip names the step a stopped job resumes from, and says nothing for a running one", () => {
    const details = (status: string) => ({
      name: 'run',
      arn: 'arn:aws:sagemaker:us-east-1:111122223333:job/AgentRFT/run',
      category: 'AgentRFT' as const,
      region: 'us-east-1',
      status,
      created: new Date('2026-12-01T10:00:00Z'),
      transitions: [],
      document: {
        ServiceOutput: { ResumableCheckpoint: { ModelPackageArn: CHECKPOINT, Step: 4 }, ProgressInfo: { MaxSteps: 10, CurrentStep: 4 } },
      },
    });
    const now = new Date('2026-12-01T12:00:00Z');
    assert.match(jobTooltip(details('Stopped'), DEFAULT_PRICING, now), /Resume from Step 4/);
    assert.doesNotMatch(jobTooltip(details('InProgress'), DEFAULT_PRICING, now), /Resume from Step/);
  });

  it('the arithmetic of a resumed job counts only the steps after the checkpoint, validation runs included', () => {
    const hp = { global_batch_size: '32', group_size: '2', max_steps: '10', max_epochs: '20', val_every: '3' };
    const resumed = trainingArithmetic(1000, hp, { resumeFrom: 4, validationRows: 8 });
    assert.equal(resumed.stepsToRun, 6);
    assert.equal(resumed.trainingRollouts, 6 * 64);
    assert.equal(resumed.validationRollouts, (3 - 1) * 8, 'validation after steps 6 and 9, not 3');
    assert.equal(describeTrainingArithmetic(resumed)[0], 'resumes from the checkpoint of step 4: steps 5…10 (6 steps)');
    const fresh = trainingArithmetic(1000, hp, { validationRows: 8 });
    assert.deepEqual([fresh.stepsToRun, fresh.resumeFrom, fresh.trainingRollouts], [10, 0, 640]);
    assert.ok(!describeTrainingArithmetic(fresh).some((l) => l.startsWith('resumes')));
  });
});

describe('MLflow 3.10 and the MTRL quotas', () => {
  it('compares versions number by number as the SDK does', () => {
    for (const v of ['3.10', '3.10.0', '3.10.1', '3.11.0', '4.0.0']) assert.ok(meetsMlflowMinimum(v), v);
    for (const v of ['3.4.0', '3.9.9', '2.16.2', '3', undefined, 'latest']) assert.ok(!meetsMlflowMinimum(v), String(v));
    assert.equal(mlflowVersionNote('3.4.0'), 'MLflow 3.4.0: MTRL needs 3.10 or later');
    assert.equal(mlflowVersionNote('3.10.0'), undefined);
  });

  it('a quota of 0 fails with the request; a positive one passes; an unread one is not checked', () => {
    const zero = checkQuota('AgentRFTEvaluation', 'eu-west-1', { value: 0 });
    assert.equal(zero.level, 'fail');
    assert.match(zero.fix!, /--quota-code L-2633C043 --desired-value 1 --region eu-west-1/);
    assert.equal(checkQuota('AgentRFT', 'us-east-1', { value: 2 }).level, 'pass');
    assert.deepEqual(
      [
        checkQuota('AgentRFT', 'us-east-1', { notChecked: 'permission x denied' }).level,
        checkQuota('AgentRFT', 'us-east-1', { value: undefined }).level,
      ],
      ['pass', 'pass'],
    );
  });
});
