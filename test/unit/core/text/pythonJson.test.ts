import { strict as assert } from 'node:assert';
import { parsePythonJson } from '../../../../src/core/text/json';

describe("parsePythonJson: JSON as Python's json writes it", () => {
  it('reads NaN, Infinity and -Infinity as null, naming the first and where it is', () => {
    assert.deepEqual(parsePythonJson('{"a": NaN, "b": [Infinity, -Infinity, 1]}'), {
      value: { a: null, b: [null, null, 1] },
      offset: 6,
      token: 'NaN',
    });
    assert.deepEqual(parsePythonJson('[-Infinity]'), { value: [null], offset: 1, token: '-Infinity' });
  });

  it('leaves the words alone inside strings, escaped quotes included', () => {
    assert.deepEqual(parsePythonJson('{"a": "NaN \\" Infinity", "b": NaN}'), {
      value: { a: 'NaN " Infinity', b: null },
      offset: 30,
      token: 'NaN',
    });
  });

  it('is undefined for text with none of them, or not JSON even with them read', () => {
    for (const text of ['{"a": 1', '{"a": nan}', '{"a": NaNa}', '{"a": NaN,}', '"NaN"'])
      assert.equal(parsePythonJson(text), undefined, text);
  });
});
