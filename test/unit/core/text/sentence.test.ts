import { strict as assert } from 'node:assert';
import { endSentence } from '../../../../src/core/text/sentence';

describe('endSentence', () => {
  it('adds one full stop, never a second', () => {
    assert.equal(endSentence('Internal error'), 'Internal error.');
    assert.equal(endSentence('Internal error.'), 'Internal error.');
    assert.equal(endSentence('Is the endpoint running?  '), 'Is the endpoint running?');
    assert.equal(endSentence('Wait…'), 'Wait…');
  });
});
