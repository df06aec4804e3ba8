import { strict as assert } from 'node:assert';
import { isJobRef, jobArnOf, jobUriPath, parseJobArgument, parseJobArn, parseJobUriPath } from '../../../../src/core/jobs/reference';
import { JobNode, RootNode, SectionNode, TransitionNode } from '../../../../src/services/jobs/nodes';

const ARN = 'arn:aws:sagemaker:us-west-2:111122223333:job/AgentRFTEvaluation/wordle-eval-7';

describe('job references: one parser for every form of a job argument', () => {
  it('a job ARN round-trips, other ARNs and partial ones are refused', () => {
    assert.deepEqual(parseJobArn(ARN), {
      partition: 'aws',
      region: 'us-west-2',
      account: '111122223333',
      category: 'AgentRFTEvaluation',
      jobName: 'wordle-eval-7',
    });
    assert.equal(jobArnOf({ region: 'us-west-2', account: '111122223333', category: 'AgentRFTEvaluation', jobName: 'wordle-eval-7' }), ARN);
    assert.equal(parseJobArn('arn:aws-cn:sagemaker:cn-north-1:111122223333:job/AgentRFT/x')?.partition, 'aws-cn');
    assert.equal(parseJobArn('arn:aws:sagemaker:us-east-1:111122223333:job/Training/x'), undefined);
    assert.equal(parseJobArn('arn:aws:bedrock-agentcore:us-east-1:111122223333:runtime/abc'), undefined);
    assert.equal(parseJobArn('arn:aws:sagemaker:us-east-1:1111:job/AgentRFT/x'), undefined);
  });

  it('a tree node: the job node itself, and a section or history entry under it', () => {
    const root = new RootNode('eu-west-1', 'AgentRFT');
    const node = new JobNode(root, {
      name: 'wordle-grpo-3',
      arn: '',
      category: 'AgentRFT',
      region: 'eu-west-1',
      status: 'InProgress',
      created: new Date(0),
    });
    const expected = { jobName: 'wordle-grpo-3', category: 'AgentRFT', region: 'eu-west-1' };
    assert.deepEqual(parseJobArgument(node), expected);
    const history = new SectionNode(node, 'history');
    assert.deepEqual(parseJobArgument(history), expected);
    assert.deepEqual(parseJobArgument(new TransitionNode(history, { status: 'Training', start: new Date(0), current: true }, 0)), expected);
    assert.equal(parseJobArgument(root), undefined, 'a category root names no job');
  });

  it('a plain `{ jobName, category, region? }` as other extensions and tests pass it', () => {
    assert.deepEqual(parseJobArgument({ jobName: 'a-1', category: 'AgentRFT' }), { jobName: 'a-1', category: 'AgentRFT' });
    assert.deepEqual(parseJobArgument({ jobName: 'a-1', category: 'Bogus', region: 'us-east-1' }), { jobName: 'a-1', region: 'us-east-1' });
    assert.equal(parseJobArgument({ jobName: 'not a name' }), undefined);
  });

  it('an ARN string (or an object carrying `arn`)', () => {
    const expected = { jobName: 'wordle-eval-7', category: 'AgentRFTEvaluation', region: 'us-west-2' };
    assert.deepEqual(parseJobArgument(ARN), expected);
    assert.deepEqual(parseJobArgument(`  ${ARN}\n`), expected);
    assert.deepEqual(parseJobArgument({ arn: ARN }), expected);
    assert.equal(parseJobArgument('arn:aws:iam::111122223333:role/MtrlJobRole'), undefined);
  });

  it('a bare name: the name only, so the caller finds its category and region', () => {
    const parsed = parseJobArgument('wordle-grpo-3');
    assert.deepEqual(parsed, { jobName: 'wordle-grpo-3' });
    assert.equal(isJobRef(parsed), false);
    assert.equal(parseJobArgument('two words'), undefined);
    assert.equal(parseJobArgument(''), undefined);
  });

  it("a job document's URI, as a string or a `{ scheme, path }` object", () => {
    const job = { region: 'us-east-1', category: 'AgentRFT' as const, jobName: 'wordle-grpo' };
    assert.equal(jobUriPath(job, 'json'), '/us-east-1/AgentRFT/wordle-grpo.json');
    assert.deepEqual(parseJobUriPath('/us-east-1/AgentRFT/wordle-grpo.log'), job);
    assert.deepEqual(parseJobArgument('mtrl-job:/us-east-1/AgentRFT/wordle-grpo.json'), job);
    assert.deepEqual(parseJobArgument('mtrl-job-logs:/us-east-1/AgentRFT/wordle-grpo.log'), job);
    assert.deepEqual(parseJobArgument({ scheme: 'mtrl-job', path: '/us-east-1/AgentRFT/wordle-grpo.json' }), job);
    assert.equal(parseJobArgument({ scheme: 'file', path: '/home/me/rollouts.log' }), undefined);
    assert.equal(parseJobArgument('file:///home/me/rollouts.log'), undefined);
    assert.equal(parseJobArgument('mtrl-job:/us-east-1/AgentRFT/%E0%A4%A.json'), undefined, 'a malformed escape is no job, not a crash');
  });

  it('anything else is no job', () => {
    for (const arg of [undefined, null, 42, [], {}, { logGroup: '/aws/x', start: 1 }]) assert.equal(parseJobArgument(arg), undefined);
    assert.equal(isJobRef(undefined), false);
  });
});
