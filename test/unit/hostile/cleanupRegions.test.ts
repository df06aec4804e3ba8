import { strict as assert } from 'node:assert';
import { main } from '../../../src/cli';
import { AwsClients } from '../../../src/aws/clients';
import { describeAwsError } from '../../../src/aws/errors';
import { ManualClock } from '../../../src/emulator/clock';
import { SEEDED } from '../../../src/emulator/seed';
import { startEmulator, type Emulator } from '../../../src/emulator/server';
import { loadInventory } from '../../../src/services/resources/inventory';
import { DEFAULT_PRICING } from '../../../src/core/jobs/pricing';
import { ceiling } from '../../host/lib/ceiling';

// An account where an organization policy denies us-west-2 (the emulator answers AccessDenied there), over HTTP with
// the real SDK: no role or prefix is deleted while a region in scope cannot be read; --exclude-regions takes it out of
// scope by name; the output lists every region not checked and why.

const PREFIX = `s3://mtrl-demo/eval-output/${SEEDED.baseEvaluation}/`;

async function cli(...argv: string[]): Promise<{ code: number; out: string; err: string }> {
  let out = '';
  let err = '';
  const code = await main(argv, { out: (t) => void (out += t + '\n'), err: (t) => void (err += t + '\n'), stdin: () => [] });
  return { code, out, err };
}

const keysUnder = (emulator: Emulator, prefix: string) =>
  [...(emulator.world.buckets.get('mtrl-demo')?.keys() ?? [])].filter((k) => k.startsWith(prefix.replace('s3://mtrl-demo/', '')));

describe('hostile account: a region that cannot be read, in cleanup', function () {
  this.timeout(ceiling(60_000));
  let emulator: Emulator;
  const saved = { id: process.env.AWS_ACCESS_KEY_ID, secret: process.env.AWS_SECRET_ACCESS_KEY };

  beforeEach(async () => {
    process.env.AWS_ACCESS_KEY_ID = 'test';
    process.env.AWS_SECRET_ACCESS_KEY = 'test';
    emulator = await startEmulator({ clock: new ManualClock(), deniedRegions: ['us-west-2'] });
  });

  afterEach(async () => {
    await emulator.close();
    for (const [name, value] of [
      ['AWS_ACCESS_KEY_ID', saved.id],
      ['AWS_SECRET_ACCESS_KEY', saved.secret],
    ] as const)
      if (value === undefined) delete process.env[name];
      else process.env[name] = value;
  });

  it('deletes no role or prefix while us-west-2 cannot be read, lists it as not checked with why, and says how to take it out', async () => {
    const before = keysUnder(emulator, PREFIX);
    assert.ok(before.length > 0);
    const { code, out } = await cli('cleanup', SEEDED.wrongTrustRole, PREFIX, '--yes', '--endpoint', emulator.url);
    assert.equal(code, 1, out);
    assert.match(out, /^Checked the jobs of us-east-1 \(every MTRL region and yours, but those below\)\.$/m);
    assert.match(out, /^Not checked: the jobs of us-west-2: Listing the jobs of us-west-2 failed: access denied/m);
    assert.match(out, /role MtrlWrongTrustRole: not proven unused: the jobs of us-west-2 could not be read/);
    assert.match(out, /take a region out of scope by name with --exclude-regions or mtrl\.cleanup\.excludeRegions/);
    assert.equal(emulator.world.roles.has('MtrlWrongTrustRole'), true);
    assert.deepEqual(keysUnder(emulator, PREFIX), before);
    assert.equal(emulator.requests.get('iam:DeleteRole') ?? 0, 0);
    assert.equal(emulator.requests.get('s3:POST') ?? 0, 0, 'no DeleteObjects call was sent');
  });

  it('--exclude-regions us-west-2 takes the region out of scope: the role and prefix go, and the output says what was not checked', async () => {
    const { code, out, err } = await cli(
      'cleanup',
      SEEDED.wrongTrustRole,
      PREFIX,
      '--yes',
      '--exclude-regions',
      'us-west-2',
      '--endpoint',
      emulator.url,
    );
    assert.equal(code, 0, out + err);
    assert.match(
      out,
      /^Not checked: the jobs of us-west-2: taken out of scope by name \(--exclude-regions or mtrl\.cleanup\.excludeRegions\): a job there that uses a role or S3 prefix is not seen\.$/m,
    );
    assert.match(out, /deleted role MtrlWrongTrustRole/);
    assert.equal(emulator.world.roles.has('MtrlWrongTrustRole'), false);
    assert.deepEqual(keysUnder(emulator, PREFIX), []);
    assert.doesNotMatch(err, /access denied|us-west-2/, 'the excluded region is not listed, so no access-denied problem is printed');
  });

  it('--json lists the regions checked and not checked, with why', async () => {
    const { code, out } = await cli(
      'cleanup',
      SEEDED.wrongTrustRole,
      '--dry-run',
      '--json',
      '--exclude-regions',
      'us-west-2',
      '--endpoint',
      emulator.url,
    );
    assert.equal(code, 0);
    const plan = JSON.parse(out) as { regionsChecked: string[]; regionsNotChecked: { region: string; reason: string }[]; steps: unknown[] };
    assert.deepEqual(plan.regionsChecked, ['us-east-1']);
    assert.deepEqual(
      plan.regionsNotChecked.map((r) => r.region),
      ['us-west-2'],
    );
    assert.match(plan.regionsNotChecked[0].reason, /^taken out of scope by name/);
    assert.equal(plan.steps.length, 1);
  });

  it('refuses to exclude --region itself, and a name that is no region, before any call', async () => {
    const own = await cli('cleanup', SEEDED.wrongTrustRole, '--dry-run', '--exclude-regions', 'us-east-1', '--endpoint', emulator.url);
    assert.equal(own.code, 2);
    assert.equal(own.err, 'mtrl cleanup: --exclude-regions cannot take out us-east-1: it is --region, where the cleanup runs.\n');
    const bogus = await cli(
      'cleanup',
      SEEDED.wrongTrustRole,
      '--dry-run',
      '--exclude-regions',
      'us-west-2,;rm',
      '--endpoint',
      emulator.url,
    );
    assert.equal(bogus.code, 2);
    assert.equal(bogus.err, 'mtrl cleanup: --exclude-regions takes region names such as us-west-2, not ";rm".\n');
    assert.equal(emulator.requests.get('sagemaker:ListJobs') ?? 0, 0);
  });

  it("the editor's inventory (mtrl.cleanup.excludeRegions) reads no job of an excluded region and names it as not checked", async () => {
    const aws = new AwsClients(() => ({ region: 'us-east-1', endpoint: emulator.url }));
    try {
      const explain = (error: unknown, action: string) => describeAwsError(error, { action });
      const options = { regions: ['us-east-1'], pricing: DEFAULT_PRICING, now: new Date(), explain };
      const denied = await loadInventory(aws, options);
      assert.deepEqual(
        denied.unreadableRegions.map((u) => u.region),
        ['us-west-2'],
      );
      const excluded = await loadInventory(aws, { ...options, excludedRegions: ['us-west-2'] });
      assert.deepEqual(excluded.unreadableRegions, []);
      assert.deepEqual(excluded.regionsChecked, ['us-east-1']);
      assert.deepEqual(
        excluded.regionsNotChecked.map((r) => r.region),
        ['us-west-2'],
      );
    } finally {
      aws.reset();
    }
  });
});
