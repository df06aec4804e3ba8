import { strict as assert } from 'node:assert';
import { mkdtempSync, readFileSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { main } from '../../../src/cli';

const fixture = (name: string) => path.resolve(__dirname, '../../fixtures/lint', name);

async function run(...argv: string[]): Promise<{ code: number; out: string; err: string }> {
  let out = '';
  let err = '';
  const code = await main(argv, { out: (t) => void (out += t + '\n'), err: (t) => void (err += t + '\n'), stdin: () => [] });
  return { code, out, err };
}

describe('mtrl lint', () => {
  it('exits 0 on a good agent and a good job role', async () => {
    const { code, out } = await run('lint', fixture('good_agent.py'), fixture('training-role-good.json'));
    assert.equal(code, 0, out);
    assert.match(out, /good_agent\.py: 0 finding\(s\) \(python ast\)/);
  });

  it('exits 0 on a router-layout agent (the entrypoint answers health checks, then calls the handler)', async () => {
    const { code, out } = await run('lint', fixture('router_agent.py'));
    assert.equal(code, 0, out);
    assert.match(out, /router_agent\.py: 0 finding\(s\) \(python ast\)/);
  });

  it('exits 1 with file:line:column findings, and says which engine ran', async () => {
    const { code, out } = await run('lint', fixture('swapped_decorators.py'), fixture('job-role-trust.json'));
    assert.equal(code, 1);
    assert.match(out, /swapped_decorators\.py:10:2 error decorator-order/);
    assert.match(out, /job-role-trust\.json: 2 finding\(s\) \(role lint\)/);
  });

  it('falls back to the regex lint when the interpreter cannot run, and says why', async () => {
    const { code, out } = await run('lint', '--python', '/nonexistent/python3', '--json', fixture('per_call_token.py'));
    assert.equal(code, 1);
    const [file] = JSON.parse(out).files;
    assert.equal(file.engine, 'regex');
    assert.match(file.note, /could not run/);
    assert.ok(file.findings.some((f: { rule: string }) => f.rule === 'per-call-token'));
  });

  it('exits 2 with one line for a missing file or no file', async () => {
    const missing = await run('lint', fixture('nope.py'));
    assert.equal(missing.code, 2);
    assert.match(missing.err, /^mtrl lint: cannot read .*nope\.py: ENOENT\n$/);
    assert.equal((await run('lint')).code, 2);
  });

  it('a UTF-16 trust policy is read by its byte order mark, a UTF-32 one is refused with exit 2: never "skipped"', async () => {
    const dir = mkdtempSync(path.join(tmpdir(), 'mtrl-lint-'));
    const policy = readFileSync(fixture('training-role-no-tag.json'), 'utf8');
    const wide = path.join(dir, 'role-utf16.json');
    writeFileSync(wide, Buffer.concat([Buffer.from([0xff, 0xfe]), Buffer.from(policy, 'utf16le')]));
    const utf8 = await run('lint', fixture('training-role-no-tag.json'));
    const utf16 = await run('lint', wide);
    assert.equal(utf16.code, utf8.code);
    assert.notEqual(utf16.code, 0);
    assert.doesNotMatch(utf16.out, /skipped/);
    const wider = path.join(dir, 'role-utf32.json');
    writeFileSync(wider, Buffer.concat([Buffer.from([0xff, 0xfe, 0, 0]), Buffer.from('{}')]));
    const refused = await run('lint', wider);
    assert.equal(refused.code, 2);
    assert.match(refused.err, /UTF-32LE/);
  });
});

describe('mtrl lint: how an agent uses sagemaker.train.rft (both engines)', () => {
  for (const engine of [[], ['--no-python']]) {
    const label = engine.length ? 'regex' : 'python ast';

    it(`${label}: \`from sagemaker.train.rft import rft_handler\` is an error naming sagemaker_rft_handler, with an alias fix`, async () => {
      const { code, out } = await run('lint', '--json', ...engine, fixture('docstring_import.py'));
      assert.equal(code, 1, out);
      const [file] = JSON.parse(out).files as {
        engine: string;
        findings: { rule: string; severity: string; message: string; line: number }[];
      }[];
      assert.equal(file.engine, label);
      const wrong = file.findings.find((f) => f.rule === 'rft-handler-import')!;
      assert.equal(wrong.severity, 'error');
      assert.match(wrong.message, /no `rft_handler`.*ImportError.*Import `sagemaker_rft_handler`/);
      assert.equal(wrong.line, 3);
    });

    it(`${label}: a rollout server that never names a region gets a warning naming us-west-2; naming AWS_REGION clears it`, async () => {
      const { code, out } = await run('lint', '--json', ...engine, fixture('rollout_server.py'));
      assert.equal(code, 1, out);
      const [file] = JSON.parse(out).files as { findings: { rule: string; severity: string; message: string }[] }[];
      const region = file.findings.find((f) => f.rule === 'region-fallback')!;
      assert.equal(region.severity, 'warning');
      assert.match(region.message, /us-west-2/);
      const dir = mkdtempSync(path.join(tmpdir(), 'mtrl-lint-region-'));
      const fixed = path.join(dir, 'server.py');
      writeFileSync(
        fixed,
        `import os\nos.environ.setdefault("AWS_REGION", "us-east-1")\n${readFileSync(fixture('rollout_server.py'), 'utf8')}`,
      );
      const again = await run('lint', '--json', ...engine, fixed);
      assert.equal(JSON.parse(again.out).files[0].findings.length, 0, again.out);
    });
  }
});
