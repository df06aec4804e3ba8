import { strict as assert } from 'node:assert';
import { main } from '../../../src/cli';
import { SEEDED } from '../../../src/emulator/seed';
import { startEmulator, type Emulator } from '../../../src/emulator/server';
import { ceiling } from '../../host/lib/ceiling';

async function run(...argv: string[]): Promise<{ code: number; out: string; err: string }> {
  let out = '';
  let err = '';
  const code = await main(argv, { out: (t) => void (out += t + '\n'), err: (t) => void (err += t + '\n'), stdin: () => [] });
  return { code, out, err };
}

describe('mtrl resources and mtrl cleanup', function () {
  this.timeout(ceiling(60_000));
  let emulator: Emulator;
  const saved = { id: process.env.AWS_ACCESS_KEY_ID, secret: process.env.AWS_SECRET_ACCESS_KEY, endpoint: process.env.AWS_ENDPOINT_URL };

  beforeEach(async () => {
    process.env.AWS_ACCESS_KEY_ID = 'test';
    process.env.AWS_SECRET_ACCESS_KEY = 'test';
    emulator = await startEmulator();
  });

  afterEach(async () => {
    await emulator.close();
    for (const [name, value] of [
      ['AWS_ACCESS_KEY_ID', saved.id],
      ['AWS_SECRET_ACCESS_KEY', saved.secret],
      ['AWS_ENDPOINT_URL', saved.endpoint],
    ] as const) {
      if (value === undefined) delete process.env[name];
      else process.env[name] = value;
    }
  });

  it('lists the inventory with the spend and the running users, as text or JSON', async () => {
    const text = await run('resources', '--endpoint', emulator.url);
    assert.equal(text.code, 0, text.err);
    assert.match(text.out, /^Jobs of us-east-1, us-west-2 \(every MTRL region and --region\)/);
    assert.match(text.out, /^Token spend month to date: \$[\d,]+\.\d\d \(AgentCore compute is billed apart and not visible here\)/m);
    assert.match(text.out, /\)\nToken spend per job:\n {2}\S+: \$[\d,]+\.\d\d\n/);
    assert.match(text.out, new RegExp(`wordle_agent · READY · jobs: .* · IN USE by ${SEEDED.inProgressJob}`));
    const json = await run('resources', '--endpoint', emulator.url, '--json');
    const parsed = JSON.parse(json.out);
    assert.deepEqual(
      parsed.mlflowApps.map((a: { status: string }) => a.status),
      ['Created · MLflow 3.10.0', 'Created · MLflow 3.4.0'],
    );
    assert.ok(parsed.spend.jobs.some((j: { name: string; cost?: number }) => j.name === SEEDED.completedJob && j.cost! > 300));
  });

  it('takes the endpoint from AWS_ENDPOINT_URL', async () => {
    process.env.AWS_ENDPOINT_URL = emulator.url;
    const { code, out } = await run('resources', '--json');
    assert.equal(code, 0);
    assert.ok(JSON.parse(out).runtimes.length >= 3);
  });

  it('refuses an in-use resource with exit 1 and the reason, and deletes nothing', async () => {
    const { code, out } = await run('cleanup', SEEDED.runtime, '--yes', '--endpoint', emulator.url);
    assert.equal(code, 1);
    assert.match(out, new RegExp(`agent runtime wordle_agent: used by running job ${SEEDED.inProgressJob}`));
    assert.ok(emulator.world.runtimes.some((r) => r.arn === SEEDED.runtime));
  });

  it('--dry-run prints the plan and deletes nothing; --yes deletes and exits 0', async () => {
    const prefix = `s3://mtrl-demo/output/${SEEDED.completedJob}/`;
    const dry = await run('cleanup', SEEDED.wrongTrustRole, prefix, '--dry-run', '--endpoint', emulator.url);
    assert.equal(dry.code, 0, dry.out + dry.err);
    assert.match(dry.out, /would delete role MtrlWrongTrustRole: detach its managed policies/);
    assert.match(dry.out, /would delete S3 prefix .*: delete 3 objects/);
    assert.equal(emulator.world.roles.has('MtrlWrongTrustRole'), true);
    const yes = await run('cleanup', SEEDED.wrongTrustRole, prefix, '--yes', '--endpoint', emulator.url);
    assert.equal(yes.code, 0, yes.out + yes.err);
    assert.match(yes.out, /deleted role MtrlWrongTrustRole/);
    assert.equal(emulator.world.roles.has('MtrlWrongTrustRole'), false);
  });

  it('exits 2 on usage errors: neither or both of --dry-run/--yes, nothing named, or not a resource', async () => {
    assert.equal((await run('cleanup', SEEDED.runtime)).code, 2);
    assert.equal((await run('cleanup', SEEDED.runtime, '--dry-run', '--yes')).code, 2);
    assert.equal((await run('cleanup', '--yes')).code, 2);
    const bad = await run('cleanup', 'wordle_agent', '--yes');
    assert.equal(bad.code, 2);
    assert.match(
      bad.err,
      /"wordle_agent" is neither an agent runtime, IAM role, MLflow app or notification rule ARN nor an s3:\/\/ prefix/,
    );
  });
});
