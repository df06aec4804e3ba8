import { strict as assert } from 'node:assert';
import { readFileSync } from 'node:fs';
import path from 'node:path';
import Ajv from 'ajv';
import { GRID_KEYS, parseSweep } from '../../../../src/core/evaluation/sweep';
import { SWEEP } from './sweepFixture';

const schema = JSON.parse(readFileSync(path.resolve(__dirname, '../../../../media/mtrl-sweep.schema.json'), 'utf8'));

describe('sweep file schema', () => {
  const validate = new Ajv({ allErrors: true, strict: false }).compile(schema);

  it('accepts what the parser accepts and rejects what it rejects', () => {
    assert.equal(validate(SWEEP), true, JSON.stringify(validate.errors));
    for (const bad of [
      { ...SWEEP, name: 'has space' },
      { ...SWEEP, models: [] },
      { ...SWEEP, grid: { top_k: ['5'] } },
      { ...SWEEP, extra: 1 },
      { ...SWEEP, grid: { temperature: ['1.0', '1.0'] } },
      { ...SWEEP, hyperparameters: 'abc' },
    ]) {
      assert.equal(validate(bad), false, JSON.stringify(bad));
      assert.ok(parseSweep(JSON.stringify(bad)).problems.length > 0);
    }
  });

  it('offers exactly the grid keys the sweep crosses', () => {
    assert.deepEqual(Object.keys(schema.properties.grid.properties), [...GRID_KEYS]);
  });
});
