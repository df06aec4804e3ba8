import assert from 'node:assert/strict';
import { main } from '../../../src/cli';
import type { CliIO } from '../../../src/cli/command';

function io(): CliIO & { outText: string[]; errText: string[] } {
  const outText: string[] = [];
  const errText: string[] = [];
  return { outText, errText, out: (t) => outText.push(t), err: (t) => errText.push(t), stdin: () => [] };
}

describe('mtrl emulator (command line)', () => {
  for (const [args, pattern] of [
    [['--throttle-rate', '2'], /^mtrl emulator: --throttle-rate must be a number between 0 and 1, got '2'/],
    [['--port', 'abc'], /--port must be a number/],
    [['--speed', '0'], /--speed must be a number/],
    [['--bogus'], /Unknown option '--bogus'/],
    [['--quota', 'L-A9CEE0B1'], /--quota takes CODE=N, e.g. L-A9CEE0B1=0; got 'L-A9CEE0B1'/],
  ] as const) {
    it(`refuses ${args.join(' ')} with one line and exit code 2`, async () => {
      const console = io();
      assert.equal(await main(['emulator', ...args], console), 2);
      assert.equal(console.errText.length, 1);
      assert.match(console.errText[0], pattern);
      assert.doesNotMatch(console.errText[0], /\n\s+at /);
    });
  }

  it('documents its flags in --help', async () => {
    const console = io();
    assert.equal(await main(['emulator', '--help'], console), 0);
    for (const flag of [
      '--port',
      '--seed',
      '--speed',
      '--throttle-rate',
      '--error-rate',
      '--latency-ms',
      '--quota',
      '--expired-credentials',
      '--traces-without-spans',
    ])
      assert.ok(console.outText[0].includes(flag), flag);
  });
});
