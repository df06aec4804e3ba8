import { strict as assert } from 'node:assert';
import { spawn } from 'node:child_process';
import { mkdtempSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';

const root = path.resolve(__dirname, '../..');

describe('mtrl (process)', function () {
  this.timeout(60_000);

  it('a reader that closes the pipe early ends the output quietly (no EPIPE stack trace)', async () => {
    const file = path.join(mkdtempSync(path.join(tmpdir(), 'mtrl-epipe-')), 'many-train.jsonl');
    const row = JSON.stringify({ prompt: JSON.stringify({ prompt: 'Guess the 5-letter word', answer: 'crane', id: 'x' }) });
    writeFileSync(file, `${row}\n`.repeat(20_000));
    const child = spawn(process.execPath, ['--import', 'tsx', path.join(root, 'src/cli.ts'), 'validate', file, '--max-findings', '100000'], { cwd: root });
    let stderr = '';
    child.stderr.on('data', (b: Buffer) => (stderr += b.toString()));
    // Read the first line, then close the pipe as `head -1` does.
    await new Promise<void>((resolve) => child.stdout.once('data', () => resolve()));
    child.stdout.destroy();
    const code = await new Promise<number | null>((resolve) => child.on('close', resolve));
    assert.equal(stderr, '');
    assert.equal(code, 1);
  });
});
