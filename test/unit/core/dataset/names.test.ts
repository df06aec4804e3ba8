import { strict as assert } from 'node:assert';
import { roleFromName } from '../../../../src/core/dataset';

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
