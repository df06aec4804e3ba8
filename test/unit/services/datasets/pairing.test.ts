import { strict as assert } from 'node:assert';
import { partnerName, trainValPair } from '../../../../src/services/datasets/pairing';

describe('services/datasets/pairing: which files are a training/validation pair', () => {
  it('takes the first training and the first validation file; no pair without both', () => {
    assert.deepEqual(trainValPair(['evaluation', 'validation', 'training', 'training']), { training: 2, validation: 1 });
    assert.deepEqual(trainValPair(['validation', undefined]), { training: -1, validation: -1 });
    assert.deepEqual(trainValPair(['training']), { training: 0, validation: -1 });
  });

  it('finds the partner beside a file: the other role, the same extension first, then by name', () => {
    const folder = ['train.csv', 'val.csv', 'val.jsonl', 'valid.jsonl', 'notes.txt', 'test.jsonl', 'val-notes.md'];
    assert.equal(partnerName('/d/train.jsonl', 'training', folder), 'val.jsonl');
    assert.equal(partnerName('/d/train.csv', 'training', folder), 'val.csv');
    assert.equal(partnerName('/d/val.jsonl', 'validation', folder), 'train.csv');
    assert.equal(partnerName('/d/test.jsonl', 'evaluation', folder), undefined);
    assert.equal(partnerName('/d/train.jsonl', 'training', ['train.jsonl', 'test.jsonl']), undefined);
  });
});
