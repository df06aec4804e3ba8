import { strict as assert } from 'node:assert';
import { AwsClients } from '../../../../src/aws/clients';
import { explainerFor } from '../../../../src/aws/errors';
import { readDatasets } from '../../../../src/services/datasets/channels';
import { refusedPort } from '../../aws/blackHole';
import { ceiling } from '../../../host/lib/ceiling';

describe('launch datasets: a channel that cannot be read', function () {
  this.timeout(ceiling(30_000));
  const saved = { id: process.env.AWS_ACCESS_KEY_ID, secret: process.env.AWS_SECRET_ACCESS_KEY };

  before(() => {
    process.env.AWS_ACCESS_KEY_ID = 'test';
    process.env.AWS_SECRET_ACCESS_KEY = 'test';
  });

  after(() => {
    for (const [name, value] of [
      ['AWS_ACCESS_KEY_ID', saved.id],
      ['AWS_SECRET_ACCESS_KEY', saved.secret],
    ] as const)
      if (value === undefined) delete process.env[name];
      else process.env[name] = value;
  });

  it('says why in the sentence of the explainer it is given, which names the endpoint in use', async () => {
    const endpoint = await refusedPort();
    const aws = new AwsClients(() => ({ region: 'us-west-2', endpoint }));
    try {
      const { facts } = await readDatasets(
        aws.s3(),
        { train: 's3://mtrl-demo/wordle/train.jsonl' },
        128,
        explainerFor(() => aws.current),
      );
      assert.equal(facts.length, 1);
      assert.match(
        facts[0].unreadable ?? '',
        new RegExp(`^Reading s3://mtrl-demo/wordle/train.jsonl failed: cannot reach ${endpoint} \\(ECONNREFUSED\\)`),
      );
    } finally {
      aws.reset();
    }
  });
});
