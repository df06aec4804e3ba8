import { strict as assert } from 'node:assert';
import { spawn } from 'node:child_process';
import path from 'node:path';
import { KEPT_OUTPUT_BYTES, runHarness } from '../../../../src/services/python/rewardHarness';
import { wordleRequest } from '../wordleRequest';
import { python } from '../../python';
import { commandLine, descendants, gone } from '../../processes';
import { ceiling } from '../../../host/lib/ceiling';

const root = path.resolve(__dirname, '../../../..');
const script = path.join(root, 'src/python/transcript_reward.py');
const fixture = (name: string) => path.join(root, 'test/fixtures/reward', name);
const request = (name: string) => wordleRequest(fixture(name));

const helperPid = (stderr: string) => Number(/helper pid (\d+)/.exec(stderr)?.[1]);

describe('reward harness: containment with the real python3', function () {
  this.timeout(ceiling(40_000));

  it('a helper started in a new session dies with the run at the timeout', async () => {
    // The test waits the whole timeout by design: long enough for the helper to start and say its pid (~0.2 s idle), scaled by the load.
    const timeoutMs = ceiling(1_500);
    const { response, stderr, pid } = await runHarness({ python, script, request: request('escapes_session.py'), timeoutMs });
    assert.equal(response.ok, false);
    assert.equal(!response.ok && response.error, 'timeout');
    const helper = helperPid(stderr);
    assert.ok(pid && helper, stderr);
    assert.ok(await gone(pid), 'harness still runs');
    assert.ok(await gone(helper), 'the helper that left the process group still runs');
  });

  it('a helper a finished run left behind in a new session is killed too', async () => {
    const { response, stderr } = await runHarness({ python, script, request: request('leaves_helper.py') });
    assert.equal(response.ok, true, JSON.stringify(response));
    const helper = helperPid(stderr);
    assert.ok(helper, stderr);
    assert.ok(await gone(helper), 'helper still runs');
  });

  it('cancelling kills a helper in a new session', async () => {
    const controller = new AbortController();
    let seen = '';
    const run = runHarness({
      python,
      script,
      request: request('escapes_session.py'),
      signal: controller.signal,
      onStderr: (t) => {
        seen += t;
        if (helperPid(seen)) controller.abort();
      },
    });
    const { response } = await run;
    assert.equal(!response.ok && response.error, 'cancelled');
    assert.ok(await gone(helperPid(seen)), 'helper still runs');
  });

  it('a reward that prints without end keeps the first MB and counts the rest', async () => {
    let forwarded = 0;
    const { response, stderr } = await runHarness({
      python,
      script,
      request: request('prints_forever.py'),
      // Waited out by design: a MB is printed in milliseconds, so a load-scaled second is plenty.
      timeoutMs: ceiling(1_000),
      onStderr: (t) => (forwarded += t.length),
    });
    assert.equal(!response.ok && response.error, 'timeout');
    assert.ok(stderr.length <= KEPT_OUTPUT_BYTES + 200, `${stderr.length} characters kept`);
    assert.match(stderr, /… [\d,]+ more bytes of output not kept\.\n$/);
    assert.ok(forwarded <= KEPT_OUTPUT_BYTES + 200, `${forwarded} characters forwarded`);
  });

  it('a timeout of 2^31 ms or more is clamped instead of firing at once', async () => {
    const { response } = await runHarness({ python, script, request: request('final_design.py'), timeoutMs: 2 ** 31 + 10 });
    assert.equal(response.ok, true, JSON.stringify(response));
  });
});

describe('mtrl reward: Ctrl-C', function () {
  this.timeout(ceiling(40_000));

  it('stops the harness and the helper it started in a new session, exit 2', async () => {
    const child = spawn(
      process.execPath,
      ['--import', 'tsx', path.join(root, 'src/cli.ts'), 'reward', fixture('escapes_session.py'), '--timeout', '60', '--python', python],
      { cwd: root },
    );
    let stderr = '';
    child.stderr.on('data', (b: Buffer) => (stderr += b.toString()));
    const closed = new Promise<number | null>((resolve) => child.on('close', resolve));
    // The CLI shows the code's output at the end, so the helper is found below the CLI's process instead.
    let helper: number | undefined;
    while (!helper) {
      await new Promise((r) => setTimeout(r, 100));
      helper = descendants(child.pid!).find((pid) => commandLine(pid).includes('sleep(120)'));
    }
    child.kill('SIGINT');
    assert.equal(await closed, 2, stderr);
    assert.match(stderr, /cancelled/);
    assert.ok(await gone(helper), 'helper still runs');
  });
});
