import { strict as assert } from 'node:assert';
import { readFileSync } from 'node:fs';
import path from 'node:path';
import { validateDataset, validateText, type DatasetFormat } from '../../../../src/core/dataset';
import { Random } from '../../../../src/emulator/random';

const fixtures = path.resolve(__dirname, '../../../fixtures/datasets');

/** The emulator's seeded generator, so a failing case can be reproduced. */
function random(seed: number): () => number {
  const generator = new Random(seed);
  return () => generator.next();
}

type Task = { prompt: string; answer: string; id: string };

/** Mutations that each must break a row in a way the validator reports. */
const breakers: ((task: Task, line: string, rnd: () => number) => string)[] = [
  (_t, line, rnd) => line.slice(0, 1 + Math.floor(rnd() * (line.length - 2))),
  (t) => JSON.stringify({ prompt: JSON.stringify(t).slice(0, -1) }),
  (t, _l, rnd) =>
    JSON.stringify({
      prompt: JSON.stringify({ ...t, answer: t.answer.slice(0, Math.floor(rnd() * 5)) + '!'.repeat(Math.floor(rnd() * 3)) }),
    }),
  (t) => JSON.stringify({ prompt: JSON.stringify({ prompt: t.prompt, answer: t.answer }) }),
  (t) => JSON.stringify({ prompt: JSON.stringify({ prompt: t.prompt, id: t.id }) }),
  (t) => JSON.stringify(t),
  (t) => JSON.stringify({ prompt: { ...t } }),
  (_t, _l, rnd) =>
    '\u0000' +
    Array.from({ length: 1 + Math.floor(rnd() * 40) }, () => String.fromCharCode(Math.floor(rnd() * 0xd7ff)))
      .join('')
      .replace(/\n/g, ' '),
  (t) => JSON.stringify({ prompt: JSON.stringify({ ...t, id: 'wordle_train_0000' }) }),
  (t) => JSON.stringify({ prompt: JSON.stringify({ ...t, prompt: `${t.prompt} (it is ${t.answer})` }) }),
  () => JSON.stringify({ prompt: '\t \u00a0'.trim() + ' ' }),
  () => '[]',
];

describe('dataset fuzz', () => {
  it('6,000 mutated rows: no exception, at least one finding on every broken row', async () => {
    const clean = readFileSync(path.join(fixtures, 'training-data.jsonl'), 'utf8').split('\n').filter(Boolean);
    const rnd = random(20261129);
    const lines: string[] = [];
    const broken = new Set<number>();
    for (let n = 0; n < 6000; n++) {
      const base = clean[n % clean.length];
      const task = JSON.parse(JSON.parse(base).prompt) as Task;
      task.id = n === 0 ? 'wordle_train_0000' : `fuzz_${n}`;
      task.answer = task.answer.slice(0, 5);
      const line = JSON.stringify({ prompt: JSON.stringify(task) });
      if (n === 0 || rnd() < 0.25) {
        lines.push(line);
        continue;
      }
      const breaker = breakers[Math.floor(rnd() * breakers.length)];
      lines.push(breaker(task, line, rnd));
      broken.add(lines.length);
    }
    const report = await validateText(lines.join('\n'), {
      format: 'jsonl',
      convention: 'auto',
      maxFindings: Infinity,
      maxPerCode: Infinity,
    });
    const flagged = new Set(report.findings.map((f) => f.span.start.line));
    const missed = [...broken].filter((line) => !flagged.has(line));
    assert.ok(broken.size > 4000, `only ${broken.size} broken rows`);
    assert.deepEqual(missed.map((l) => lines[l - 1]).slice(0, 5), []);
  });

  it('random bytes in every format: findings or a clean result, never an exception', async () => {
    const rnd = random(7);
    for (const format of ['jsonl', 'json', 'csv', 'parquet'] as DatasetFormat[]) {
      for (let n = 0; n < 50; n++) {
        const bytes = Uint8Array.from({ length: Math.floor(rnd() * 2000) }, () => Math.floor(rnd() * 256));
        async function* chunks() {
          for (let i = 0; i < bytes.length; i += 97) yield bytes.subarray(i, i + 97);
        }
        const report = await validateDataset(chunks(), { format });
        assert.ok(report.findings.length > 0, `${format} #${n}`);
      }
    }
  });
});
