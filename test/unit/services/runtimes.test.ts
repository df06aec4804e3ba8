import { strict as assert } from 'node:assert';
import { AwsClients } from '../../../src/aws/clients';
import { explainerFor } from '../../../src/aws/errors';
import { startEmulator, type Emulator } from '../../../src/emulator/server';
import { listRuntimeRows } from '../../../src/services/runtimes';

describe('Agent Runtimes listing (emulator, real SDK over HTTP; no VS Code)', function () {
  this.timeout(20_000);
  let emulator: Emulator;
  const saved = { id: process.env.AWS_ACCESS_KEY_ID, secret: process.env.AWS_SECRET_ACCESS_KEY };

  before(async () => {
    process.env.AWS_ACCESS_KEY_ID = 'test';
    process.env.AWS_SECRET_ACCESS_KEY = 'test';
    emulator = await startEmulator({});
  });

  after(async () => {
    await emulator.close();
    process.env.AWS_ACCESS_KEY_ID = saved.id;
    process.env.AWS_SECRET_ACCESS_KEY = saved.secret;
    if (saved.id === undefined) delete process.env.AWS_ACCESS_KEY_ID;
    if (saved.secret === undefined) delete process.env.AWS_SECRET_ACCESS_KEY;
  });

  const listing = async (region: string, endpoint = emulator.url) => {
    const aws = new AwsClients(() => ({ region, endpoint }));
    try {
      return await listRuntimeRows(
        aws,
        explainerFor(() => aws.current),
      );
    } finally {
      aws.reset();
    }
  };

  it("lists the region's runtimes with name and status", async () => {
    const result = await listing('us-east-1');
    assert.ok('runtimes' in result, JSON.stringify(result));
    const agent = result.runtimes.find((r) => r.arn.endsWith('/wordle_agent-AbCdEf1234'));
    assert.deepEqual(agent && { name: agent.name, status: agent.status }, { name: 'wordle_agent', status: 'READY' });
  });

  it('says so for a region with none, and names the endpoint when it cannot be reached', async () => {
    assert.deepEqual(await listing('us-west-2'), { message: 'No agent runtimes in us-west-2', error: false });
    const refused = await listing('us-east-1', 'http://127.0.0.1:9');
    assert.ok('error' in refused && refused.error);
    assert.match(refused.message, /Listing agent runtimes in us-east-1 failed: cannot reach http:\/\/127\.0\.0\.1:9/);
  });
});
