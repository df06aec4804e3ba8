import { strict as assert } from 'node:assert';
import { mkdtempSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { main } from '../../../src/cli';
import { python } from '../python';
import { ceiling } from '../../host/lib/ceiling';

describe('mtrl reward FILE.py with a scenario file beside it', function () {
  this.timeout(ceiling(30_000));

  it('scores the Python reward on the *.mtrl-reward.json beside it that names it, instead of asking for one', async () => {
    const dir = mkdtempSync(path.join(tmpdir(), 'mtrl-reward-beside-'));
    const py = path.join(dir, 'support_reward.py');
    writeFileSync(py, 'def reward(task, transcript):\n    return 1.0\n');
    writeFileSync(path.join(dir, 'other.mtrl-reward.json'), JSON.stringify({ reward: { file: 'elsewhere.py', function: 'reward' } }));
    writeFileSync(
      path.join(dir, 'support.mtrl-reward.json'),
      JSON.stringify({ reward: { file: 'support_reward.py', function: 'reward' } }),
    );
    let err = '';
    await main(['reward', py, '--python', python], { out: () => undefined, err: (t) => void (err += t + '\n'), stdin: () => [] });
    assert.match(err, /on the scenarios of .*support\.mtrl-reward\.json, which names it/);
    assert.doesNotMatch(err, /name it in a \*\.mtrl-reward\.json file/);
  });
});
