import { strict as assert } from 'node:assert';
import { AwsClients } from '../../../src/aws/clients';
import { explainerFor } from '../../../src/aws/errors';
import { startEmulator, type Emulator } from '../../../src/emulator/server';
import { listRuntimeNodes, RuntimeNode } from '../../../src/services/runtimes';
import { MessageNode } from '../../../src/services/treeNodes';
import { ceiling } from '../../host/lib/ceiling';

describe('Agent Runtimes view model (emulator, real SDK over HTTP; no VS Code)', function () {
  this.timeout(ceiling(20_000));
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

  const listing = async (region: string, endpoint = emulator.url, profile?: string) => {
    const aws = new AwsClients(() => ({ region, endpoint, profile }));
    try {
      return await listRuntimeNodes(
        aws,
        explainerFor(() => aws.current),
      );
    } finally {
      aws.reset();
    }
  };

  it("lists the region's runtimes with name and status, each node carrying the ARN the Smoke Test menu reads", async () => {
    const nodes = await listing('us-east-1');
    assert.ok(
      nodes.every((n) => n instanceof RuntimeNode),
      JSON.stringify(nodes),
    );
    const agent = nodes.find((n): n is RuntimeNode => n instanceof RuntimeNode && n.runtimeArn.endsWith('/wordle_agent-AbCdEf1234'));
    assert.deepEqual(agent && { id: agent.id, name: agent.name, status: agent.status }, {
      id: agent?.runtimeArn,
      name: 'wordle_agent',
      status: 'READY',
    });
  });

  it('says so for a region with none and offers another region; names the endpoint and offers Retry when it cannot be reached', async () => {
    const [none] = await listing('eu-west-1');
    assert.ok(none instanceof MessageNode);
    assert.deepEqual(
      [none.id, none.message, none.text, none.fix?.command],
      ['#empty', 'empty', 'No agent runtimes in eu-west-1', 'mtrl.chooseRegion'],
    );
    const [refused, ...rest] = await listing('us-east-1', 'http://127.0.0.1:9');
    assert.equal(rest.length, 0);
    assert.ok(refused instanceof MessageNode);
    assert.deepEqual(
      [refused.id, refused.message, refused.fix?.title, refused.fix?.command],
      ['#error', 'error', 'Retry', 'mtrl.refreshRuntimes'],
    );
    assert.match(refused.text, /Listing agent runtimes in us-east-1 failed: cannot reach http:\/\/127\.0\.0\.1:9/);
  });

  it('offers Choose AWS profile when the profile has no credentials', async () => {
    const env = { ...process.env };
    // No keys in the environment and no AWS files: the profile resolves to nothing.
    delete process.env.AWS_ACCESS_KEY_ID;
    delete process.env.AWS_SECRET_ACCESS_KEY;
    process.env.AWS_CONFIG_FILE = process.env.AWS_SHARED_CREDENTIALS_FILE = '/nonexistent/mtrl-aws-files';
    try {
      const [node] = await listing('us-east-1', emulator.url, 'mtrl-no-such-profile');
      assert.ok(node instanceof MessageNode);
      assert.deepEqual([node.message, node.fix?.command], ['credentials', 'mtrl.chooseProfile'], node.text);
    } finally {
      process.env = env;
    }
  });
});
