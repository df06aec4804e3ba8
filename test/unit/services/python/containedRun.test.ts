import { strict as assert } from 'node:assert';
import { spawn } from 'node:child_process';
import path from 'node:path';
import { runContained } from '../../../../src/services/python/containedRun';
import { runHarness } from '../../../../src/services/python/rewardHarness';
import { wordleRequest } from '../wordleRequest';
import { python } from '../../python';
import { commandLine, descendants, gone, refused, running } from '../../processes';
import { ceiling } from '../../../host/lib/ceiling';

// User Python that daemonizes (fork, setsid, fork again, a listening port) and then leaves: the run must end on the
// script's exit, within its timeout + 10 s, and take the daemon and its port with it.

const root = path.resolve(__dirname, '../../../..');
const rewardFixture = (name: string) => path.join(root, 'test/fixtures/reward', name);
const request = (name: string) => wordleRequest(rewardFixture(name));
const daemonOf = (stderr: string) => {
  const found = /daemon pid (\d+) port (\d+)/.exec(stderr);
  assert.ok(found, `no daemon line in: ${stderr}`);
  return { pid: Number(found[1]), port: Number(found[2]) };
};

describe('contained run: a daemon the user code leaves behind (real python3)', function () {
  this.timeout(ceiling(40_000));

  it('reward code that daemonizes at import and leaves with os._exit: the run ends with a sentence, no process, no port', async () => {
    const started = Date.now();
    const { response, stderr, pid } = await runHarness({
      python,
      script: path.join(root, 'src/python/transcript_reward.py'),
      request: request('detached_daemon.py'),
      // The run crashes long before its limit; the limit scales so a slow Python start on a loaded machine is no timeout.
      timeoutMs: ceiling(2_500),
    });
    assert.ok(Date.now() - started < ceiling(7_500), `took ${Date.now() - started} ms`);
    assert.equal(!response.ok && response.error, 'crashed', JSON.stringify(response));
    assert.match(!response.ok ? response.message : '', /exited with code 0 without a result/);
    const daemon = daemonOf(stderr);
    assert.ok(await gone(daemon.pid), 'the daemon still runs');
    assert.ok(await refused(daemon.port), 'the daemon’s port still accepts connections');
    assert.ok(!running(pid!), 'the supervisor still runs');
  });

  it('reward code that daemonizes and loops: stopped at its timeout, daemon and port gone', async () => {
    const started = Date.now();
    const { response, stderr } = await runHarness({
      python,
      script: path.join(root, 'src/python/transcript_reward.py'),
      request: request('daemon_then_loop.py'),
      timeoutMs: 3000,
    });
    assert.ok(Date.now() - started < ceiling(6_500), `took ${Date.now() - started} ms`);
    assert.equal(!response.ok && response.error, 'timeout', JSON.stringify(response));
    const daemon = daemonOf(stderr);
    assert.ok(await gone(daemon.pid), 'the daemon still runs');
    assert.ok(await refused(daemon.port), 'the daemon’s port still accepts connections');
  });

  it('an agent entrypoint that daemonizes and leaves with os._exit: the rollout ends, no process, no port', async () => {
    const started = Date.now();
    const { response, stderr } = await runContained({
      python,
      script: path.join(root, 'src/python/agent_runner.py'),
      request: { file: path.join(root, 'test/fixtures/signal/daemon_agent.py'), payload: { prompt: 'play' } },
      timeoutMs: ceiling(2_500),
      parse: (): { ok: true } | undefined => undefined,
      say: { timeout: 'timeout', cancelled: 'cancelled', crashed: (how) => `The agent runner ${how} without a result` },
    });
    assert.ok(Date.now() - started < ceiling(7_500), `took ${Date.now() - started} ms`);
    assert.equal(!response.ok && response.error, 'crashed', JSON.stringify(response));
    const daemon = daemonOf(stderr);
    assert.ok(await gone(daemon.pid), 'the daemon still runs');
    assert.ok(await refused(daemon.port), 'the daemon’s port still accepts connections');
  });

  it('stop signals that keep coming (a dying caller sends one per thread it had) never cut the clean-up short', async () => {
    // The script starts a daemon (its own session, a port) and loops; the supervisor then gets several stop signals.
    const script = [
      'import os, socket, sys, time',
      'if os.fork() == 0:',
      '    os.setsid()',
      '    if os.fork(): os._exit(0)',
      '    server = socket.socket(); server.bind(("127.0.0.1", 0)); server.listen()',
      '    print(f"daemon pid {os.getpid()} port {server.getsockname()[1]}", file=sys.stderr, flush=True)',
      '    time.sleep(60); os._exit(0)',
      'while True: time.sleep(0.1)',
    ].join('\n');
    const supervisor = spawn(python, ['-S', path.join(root, 'src/python/contained_run.py'), '-c', script]);
    let stderr = '';
    supervisor.stderr.on('data', (chunk: Buffer) => (stderr += chunk.toString()));
    const ended = new Promise<[number | null, NodeJS.Signals | null]>((resolve) =>
      supervisor.on('exit', (code, signal) => resolve([code, signal])),
    );
    while (!/daemon pid/.test(stderr)) await new Promise((r) => setTimeout(r, 50));
    const daemon = daemonOf(stderr);
    // Three stop signals pending at once: Python handles one, and meets the next inside whatever runs after it.
    supervisor.kill('SIGSTOP');
    for (const stop of ['SIGHUP', 'SIGINT', 'SIGTERM'] as const) supervisor.kill(stop);
    supervisor.kill('SIGCONT');
    const [code, signal] = await ended;
    assert.ok(
      code === null && ['SIGHUP', 'SIGINT', 'SIGTERM'].includes(signal!),
      `the supervisor did not end by its clean-up (code ${code}): ${stderr}`,
    );
    assert.ok(await gone(daemon.pid), 'the daemon still runs');
    assert.ok(await refused(daemon.port), 'the daemon’s port still accepts connections');
  });

  it('the CLI killed outright (SIGKILL) still takes the run’s processes with it', async () => {
    const cli = spawn(process.execPath, [
      '--import',
      'tsx',
      path.join(root, 'src/cli.ts'),
      'reward',
      rewardFixture('daemon_then_loop.py'),
      '--timeout',
      '60',
      '--python',
      python,
    ]);
    const exited = new Promise((resolve) => cli.on('exit', resolve));
    // Supervisor, harness and the daemon (adopted by the supervisor): all three Pythons below the CLI (tsx's esbuild
    // service is below it too, and not the run's).
    let below: number[] = [];
    while (below.length < 3) {
      await new Promise((r) => setTimeout(r, 100));
      below = descendants(cli.pid!).filter((pid) => commandLine(pid).includes(python));
    }
    const named = below.map((pid) => `${pid} ${commandLine(pid).replaceAll('\0', ' ').trim()}`);
    cli.kill('SIGKILL');
    await exited;
    for (const [i, pid] of below.entries()) assert.ok(await gone(pid), `process ${named[i]} outlived the CLI`);
  });
});
