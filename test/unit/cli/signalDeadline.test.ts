import { strict as assert } from 'node:assert';
import { mkdtempSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { main } from '../../../src/cli';
import { python } from '../python';
import { ceiling } from '../../host/lib/ceiling';

// Issue 46: a local check cut by --deadline said "run at least 2 rollouts per task", advice the cut itself caused.
describe('mtrl signal --local stopped at its --deadline', function () {
  this.timeout(ceiling(30_000));

  it('says the deadline stopped it, how many rollouts it covers, and --deadline as the fix; no task advice', async () => {
    const dir = mkdtempSync(path.join(tmpdir(), 'mtrl-deadline-'));
    const agent = path.join(dir, 'slow_agent.py');
    writeFileSync(
      agent,
      [
        'import time',
        'from bedrock_agentcore.runtime import BedrockAgentCoreApp',
        'app = BedrockAgentCoreApp()',
        '@app.entrypoint',
        'def handle(payload):',
        '    time.sleep(60)',
        '    return {"reward": 1.0}',
        '',
      ].join('\n'),
    );
    const out: string[] = [];
    const err: string[] = [];
    const data = path.resolve(__dirname, '../../fixtures/datasets/training-data.jsonl');
    const args = ['signal', '--local', agent, '--data', data, '--rows', '2', '--group-size', '2', '--python', python];
    const code = await main([...args, '--store', path.join(dir, 'store'), '--deadline', '3'], {
      out: (t) => out.push(t),
      err: (t) => err.push(t),
      stdin: () => [],
    });
    const text = out.join('\n');
    assert.match(text, /Stopped at the deadline: the report covers the 0 of 4 rollouts played so far, too few to advise on\./);
    assert.match(text, /Give the check longer with --deadline S/);
    assert.doesNotMatch(text, /run at least 2 rollouts per task/);
    assert.doesNotMatch(err.join('\n'), /stopped: no result within the deadline/, 'the check ended with its own sentence');
    assert.notEqual(code, 0);
  });
});
