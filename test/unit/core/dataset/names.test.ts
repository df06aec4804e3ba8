import { strict as assert } from 'node:assert';
import { roleFromName } from '../../../../src/core/dataset';
import { missingPromptMessage } from '../../../../src/core/dataset/rowText';

describe('roleFromName', () => {
  it('reads the role from whole words of the name', () => {
    const cases: [string, string | undefined][] = [
      ['data/training-data.jsonl', 'training'],
      ['wordle_train_v2.parquet', 'training'],
      ['s3://b/k/validation-data.csv', 'validation'],
      ['val.jsonl', 'validation'],
      ['eval_set.json', 'evaluation'],
      ['test.jsonl', 'evaluation'],
      ['constrained-prompts.jsonl', undefined],
      ['interval.jsonl', undefined],
      ['latest.jsonl', undefined],
    ];
    for (const [name, role] of cases) assert.equal(roleFromName(name), role, name);
  });
});

describe('a column named almost `prompt`', () => {
  it('is named with the rename when exactly one is one edit away, case and spaces aside', () => {
    for (const name of ['Prompt', 'PROMPT', 'prompts', 'promt', ' prompt'])
      assert.match(
        missingPromptMessage('id', 2, ['id', name]),
        new RegExp(`\`${name}\` looks like it: .*rename\\(columns=\\{"${name}": "prompt"\\}\\)`),
        name,
      );
    for (const columns of [['id', 'promo'], ['id', 'Prompt', 'prompts'], ['question', 'answer'], ['x'.repeat(100_000)]])
      assert.match(missingPromptMessage(columns[0], 1, columns), /instead\.$/, columns.join());
  });
});
