import { strict as assert } from 'node:assert';
import { readdirSync, readFileSync } from 'node:fs';
import path from 'node:path';
import Ajv from 'ajv';
import { GENERIC_INVARIANTS, parseScenarioFile } from '../../../../src/core/reward';

const root = path.resolve(__dirname, '../../../..');
const schema = JSON.parse(readFileSync(path.join(root, 'media/mtrl-reward.schema.json'), 'utf8'));
const fixtures = path.join(root, 'test/fixtures/workspace/reward-scenarios');

describe('reward scenario file schema', () => {
  const validate = new Ajv({ allErrors: true, strict: false }).compile(schema);

  it('accepts every scenario file the parser accepts', () => {
    const files = readdirSync(fixtures).filter((f) => f.endsWith('.mtrl-reward.json'));
    assert.ok(files.length >= 4);
    for (const f of files) {
      const value = JSON.parse(readFileSync(path.join(fixtures, f), 'utf8'));
      assert.equal(validate(value), true, `${f}: ${JSON.stringify(validate.errors)}`);
      assert.deepEqual(parseScenarioFile(JSON.stringify(value)).problems, [], f);
    }
  });

  it('rejects what the parser rejects', () => {
    const base = JSON.parse(readFileSync(path.join(fixtures, 'math.mtrl-reward.json'), 'utf8'));
    for (const bad of [
      { ...base, reward: { file: 'x.py' } },
      { ...base, scenarios: {} },
      { ...base, invariants: ['made-up'] },
      { ...base, extra: 1 },
      { ...base, reward: { file: 'x.py', class: 'Env' } },
    ]) {
      assert.equal(validate(bad), false, JSON.stringify(bad));
      assert.ok(parseScenarioFile(JSON.stringify(bad)).problems.length > 0, JSON.stringify(bad));
    }
  });

  it('offers exactly the generic invariants the checker knows', () => {
    assert.deepEqual(schema.properties.invariants.items.enum, [...GENERIC_INVARIANTS]);
  });
});
