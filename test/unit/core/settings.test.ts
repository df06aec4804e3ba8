import { strict as assert } from 'node:assert';
import { readFileSync } from 'node:fs';
import path from 'node:path';
import { datasetConventions } from '../../../src/core/dataset';
import { SETTINGS, settingValue, type SettingKey } from '../../../src/core/settings';

interface Contributed {
  default: unknown;
  enum?: unknown[];
  minimum?: number;
  maximum?: number;
}
const manifest = JSON.parse(readFileSync(path.resolve(__dirname, '../../../package.json'), 'utf8')) as {
  contributes: { configuration: { properties: Record<string, Contributed> } | { properties: Record<string, Contributed> }[] };
};
const sections = [manifest.contributes.configuration].flat();
const contributed: Record<string, Contributed> = Object.assign({}, ...sections.map((s) => s.properties));

describe('settings: every getter owns its default and range', () => {
  it('knows every setting package.json contributes, with the same default, minimum and maximum', () => {
    assert.deepEqual(
      Object.keys(SETTINGS)
        .map((k) => `mtrl.${k}`)
        .sort(),
      Object.keys(contributed).sort(),
    );
    for (const [key, spec] of Object.entries(SETTINGS) as [SettingKey, { default: unknown; min?: number; max?: number }][]) {
      const c = contributed[`mtrl.${key}`];
      assert.deepEqual(spec.default, c.default, key);
      assert.equal(spec.min, c.minimum, `${key} minimum`);
      assert.equal(spec.max, c.maximum, `${key} maximum`);
    }
  });

  it("offers the dataset conventions the checker knows, each pack's included (package.json cannot ask the registry)", () => {
    assert.deepEqual(contributed['mtrl.datasets.convention'].enum, datasetConventions());
    assert.equal(settingValue('datasets.convention', 'wordle'), 'wordle');
  });

  it('gives the default for an unset value or one of the wrong type', () => {
    assert.equal(settingValue('jobs.refreshSeconds', undefined), 30);
    assert.equal(settingValue('jobs.refreshSeconds', '45'), 30);
    assert.equal(settingValue('jobs.notify', 'yes'), true);
    assert.deepEqual(settingValue('aws.regions', 'us-east-1'), []);
  });

  it('holds numbers in range, trims strings, keeps only allowed values', () => {
    assert.equal(settingValue('jobs.refreshSeconds', 1), 5);
    assert.equal(settingValue('reward.timeoutSeconds', 99_999), 3600);
    assert.equal(settingValue('datasets.batchSize', 64.7), 64);
    assert.equal(settingValue('smoke.logWaitSeconds', -3), 0);
    assert.equal(settingValue('aws.region', '  '), 'us-east-1');
    assert.equal(settingValue('aws.profile', ' dev '), 'dev');
    assert.equal(settingValue('datasets.convention', 'sql'), 'auto');
    assert.deepEqual(settingValue('datasets.include', ['*.jsonl', ' ', 3]), ['*.jsonl']);
  });
});
