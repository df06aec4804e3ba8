import { strict as assert } from 'node:assert';
import { duplicateKeyChecks, duplicateKeys } from '../../../../src/core/jobs/duplicateKeys';

describe('duplicateKeys: keys JSON.parse would keep only the last of', () => {
  it('finds a repeated key at any depth, by its path and the offset of its second occurrence', () => {
    const text = '{"JobName":"a","Tags":[{"Key":"k","Value":"v","Key":"k2"}],"JobConfigDocument":{"T":{"lr":"1","lr":"2"}},"JobName":"b"}';
    assert.deepEqual(duplicateKeys(text), [
      { path: 'Tags[0].Key', offset: text.indexOf('"Key":"k2"') },
      { path: 'JobConfigDocument.T.lr', offset: text.lastIndexOf('"lr"') },
      { path: 'JobName', offset: text.lastIndexOf('"JobName"') },
    ]);
  });

  it('reads keys and strings with escapes and braces inside as text, and the same key in sibling objects as no repeat', () => {
    const text = '{"a\\"}":"{\\"a\\":1}","b":[{"x":1},{"x":2}],"c":{"x":"]"},"a\\u0022}":0}';
    assert.deepEqual(
      duplicateKeys(text).map((d) => d.path),
      ['a"}'],
    );
  });

  it('says the fix as a warning the pre-flight shows', () => {
    const [check] = duplicateKeyChecks('{"Region":"us-east-1","Region":"eu-west-1"}');
    assert.equal(check.level, 'warn');
    assert.equal(check.message, 'Region appears more than once in the file; JSON keeps only the last value.');
    assert.equal(check.fix, 'keep one Region and remove the others.');
  });
});
