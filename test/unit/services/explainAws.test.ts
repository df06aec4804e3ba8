import assert from 'node:assert/strict';
import { explainIfAws } from '../../../src/services/explainAws';

describe("services/explainAws: the board's and the signal view's sentence for an error", () => {
  it("explainIfAws leaves our own sentences to the caller and explains an AWS service's error", () => {
    const explain = (_error: unknown, action: string) => `explained: ${action}`;
    assert.equal(explainIfAws(explain, new Error('The file is empty.'), 'Reading'), undefined);
    const denied = Object.assign(new Error('no'), { name: 'AccessDeniedException', $metadata: { httpStatusCode: 403 } });
    assert.equal(explainIfAws(explain, denied, 'Reading'), 'explained: Reading');
  });
});
