import { strict as assert } from 'node:assert';
import { columnsChecked } from '../../../../src/core/dataset/checkedColumns';
import { KeyTable } from '../../../../src/core/dataset/key-table';

describe('the columns the dataset checks read', () => {
  it('prompt with answer and id beside it; other columns are never read', () => {
    assert.deepEqual(columnsChecked(['extra', 'id', 'prompt', 'meta']), ['prompt', 'id']);
    assert.deepEqual(columnsChecked(['answer', 'prompt', 'id']), ['prompt', 'answer', 'id']);
  });

  it('without prompt, the first key of a row object: the column the service passes instead', () => {
    assert.deepEqual(columnsChecked(['question', 'answer']), ['question']);
    // A row object puts integer-like keys first, and the check reads its first key.
    assert.deepEqual(columnsChecked(['question', '7']), ['7']);
  });

  it('all columns when the file names none', () => {
    assert.equal(columnsChecked([]), undefined);
  });
});

describe('a key table sized up front', () => {
  it('finds first occurrences as one that grew', () => {
    const grown = new KeyTable();
    const sized = new KeyTable();
    sized.reserve(50_000);
    for (let i = 0; i < 50_000; i++) {
      const key = `k${i % 30_011}`;
      assert.equal(sized.firstOrAdd(key, i + 1), grown.firstOrAdd(key, i + 1), key);
    }
    assert.equal(sized.size, grown.size);
  });
});
