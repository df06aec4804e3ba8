import { strict as assert } from 'node:assert';
import { checkHyperparameters } from '../../../../src/core/jobs/preflight';
import {
  checkEvaluationEula,
  checkModelPackageGroups,
  forbiddenCharacter,
  MAX_HYPERPARAMETERS,
  trainerRuleProblems,
} from '../../../../src/core/jobs/trainerRules';

const MODEL = 'arn:aws:sagemaker:us-east-1:aws:hub-content/SageMakerPublicHub/Model/openai-reasoning-gpt-oss-20b';
const GROUP = (name: string) => `arn:aws:sagemaker:us-east-1:111122223333:model-package-group/${name}`;

describe("the SDK trainer's checks", () => {
  it('51 hyperparameters fail naming the limit of 50; 50 do not', () => {
    const many = (n: number) => Object.fromEntries(Array.from({ length: n }, (_, i) => [`custom_${i}`, '1']));
    assert.equal(MAX_HYPERPARAMETERS, 50);
    const r = checkHyperparameters('AgentRFT', many(51));
    assert.equal(r.level, 'fail');
    assert.match(r.message, /51 hyperparameters are set; the SDK's limit is 50/);
    assert.deepEqual(trainerRuleProblems(many(50)), []);
  });

  it('a value outside the character rule fails naming the setting and the character, also when it parses as a number', () => {
    const r = checkHyperparameters('AgentRFT', { learning_rate: '2e+1' });
    assert.equal(r.level, 'fail');
    assert.match(r.message, /learning_rate "2e\+1" contains the character "\+"/);
    assert.equal(forbiddenCharacter('x;y'), '";"');
    assert.equal(forbiddenCharacter('tab\there'), undefined, 'whitespace is allowed (\\s)');
    assert.equal(forbiddenCharacter('bell\u0007'), '"\\u0007"', 'a control character is shown escaped');
    for (const fine of ['1e-5', '[1,2,4]', 'group_based', 'it\'s "ok" a/b:c']) assert.equal(forbiddenCharacter(fine), undefined, fine);
  });

  it("shows the SDK's default group names, and refuses the same group for output and checkpoints", () => {
    const defaults = checkModelPackageGroups('AgentRFT', {}, MODEL)!;
    assert.equal(defaults.level, 'pass');
    assert.match(defaults.message, /output openai-reasoning-gpt-oss-20b-mtrl-mpg \(SDK default\)/);
    assert.match(defaults.message, /checkpoints openai-reasoning-gpt-oss-20b-mtrl-checkpoint-mpg \(SDK default\)/);
    const same = checkModelPackageGroups(
      'AgentRFT',
      { ModelPackageConfig: { OutputModelPackageGroupArn: GROUP('g'), IntermediateCheckpointModelPackageGroupArn: GROUP('g') } },
      MODEL,
    )!;
    assert.equal(same.level, 'fail');
    assert.match(same.message, /the same, g/);
    const ownCheckpoint = checkModelPackageGroups(
      'AgentRFT',
      { ModelPackageConfig: { IntermediateCheckpointModelPackageGroupArn: GROUP('openai-reasoning-gpt-oss-20b-mtrl-mpg') } },
      MODEL,
    )!;
    assert.equal(ownCheckpoint.level, 'fail', "a checkpoint group equal to the SDK's output default is the same group");
    assert.equal(checkModelPackageGroups('AgentRFTEvaluation', {}, MODEL), undefined);
  });

  it('an evaluation without AcceptEula true fails; with it passes; training is not asked', () => {
    assert.equal(checkEvaluationEula('AgentRFTEvaluation', { EvaluationConfig: { BaseModelArn: MODEL } })?.level, 'fail');
    assert.equal(checkEvaluationEula('AgentRFTEvaluation', { EvaluationConfig: { AcceptEula: false } })?.level, 'fail');
    assert.equal(checkEvaluationEula('AgentRFTEvaluation', { EvaluationConfig: { AcceptEula: true } })?.level, 'pass');
    assert.equal(checkEvaluationEula('AgentRFT', {}), undefined);
  });
});
