import { strict as assert } from 'node:assert';
import { main } from '../../../src/cli';
import { commands } from '../../../src/cli/commands';

async function run(...argv: string[]): Promise<{ code: number; errors: string[] }> {
  const errors: string[] = [];
  const code = await main(argv, { out: () => undefined, err: (t) => void errors.push(t), stdin: () => [] });
  return { code, errors };
}

describe('mtrl <command>: options every command parses the same way', () => {
  for (const entry of commands) {
    it(`${entry.name}: a flag it does not take is exit 2 with the parser's sentence and the usage line, no stack`, async () => {
      const usageLine = entry.load().usage.split('\n')[0];
      const { code, errors } = await run(entry.name, '--no-such-flag');
      assert.equal(code, 2);
      assert.equal(errors.length, 1, errors.join('\n'));
      const [sentence, usage, ...rest] = errors[0].split('\n');
      assert.match(sentence, new RegExp(`^mtrl ${entry.name}: Unknown option '--no-such-flag'`));
      assert.equal(usage, usageLine);
      assert.deepEqual(rest, []);
    });
  }

  for (const name of ['resources', 'smoke', 'emulator']) {
    it(`${name}: a stray argument is exit 2 with the usage line`, async () => {
      const { code, errors } = await run(name, 'stray');
      assert.equal(code, 2);
      assert.match(errors[0], new RegExp(`^mtrl ${name}: Unexpected argument 'stray'.*\\nUsage: mtrl ${name} `));
    });
  }

  it('a flag without its value is exit 2 with the usage line', async () => {
    const { code, errors } = await run('validate', 'train.jsonl', '--batch');
    assert.equal(code, 2);
    assert.match(errors[0], /^mtrl validate: Option '--batch <value>' argument missing\nUsage: mtrl validate /);
  });

  it("a usage error from a command's own bundle (another copy of the class) is still one sentence, no stack", async () => {
    // The built CLI bundles each command apart, so its UsageError is not the entry's class: it is known by name.
    class UsageError extends Error {
      override name = 'UsageError';
    }
    const entry = {
      name: 'apart',
      summary: '',
      load: () => ({ name: 'apart', usage: 'Usage: mtrl apart', run: () => Promise.reject(new UsageError('no such file')) }),
    };
    commands.push(entry);
    try {
      const { code, errors } = await run('apart');
      assert.equal(code, 2);
      assert.deepEqual(errors, ['mtrl apart: no such file']);
    } finally {
      commands.splice(commands.indexOf(entry), 1);
    }
  });
});
