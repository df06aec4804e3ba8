import { strict as assert } from 'node:assert';
import { ReplayData } from '../../../../src/core/rollouts';
import { RolloutScan } from '../../../../src/core/scan';
import { replayHandlers } from '../../../../src/shared/protocol';
import { seededTranscripts, SEEDED_COUNTS } from './seeded';

describe('rollout scan on the board', () => {
  const scan = new RolloutScan();
  const data = new ReplayData(seededTranscripts(), undefined, scan);
  const handlers = replayHandlers(data, scan);

  it('a finding is a filter: its kind keeps exactly the rollouts it marks', async () => {
    for (const [kind, count] of Object.entries(SEEDED_COUNTS)) {
      const { rows } = await handlers.groups({ filter: { finding: kind }, offset: 0, count: 500 });
      const shown = (await Promise.all(rows.map((g) => handlers.rollouts({ group: g.index, filter: { finding: kind } })))).flat();
      assert.equal(shown.length, count, kind);
      assert.ok(
        shown.every((r) => r.trajectoryId.startsWith(`${kind}-`) && r.findings?.includes(kind)),
        kind,
      );
    }
  });

  it('and a marker: clean rollouts carry none', async () => {
    const { rows } = await handlers.groups({ filter: { search: 'clean' }, offset: 0, count: 500 });
    const shown = (await Promise.all(rows.map((g) => handlers.rollouts({ group: g.index, filter: { search: 'clean' } })))).flat();
    assert.equal(shown.length, 40);
    assert.deepEqual(
      shown.filter((r) => r.findings),
      [],
    );
  });

  it('the findings request gives every kind with its count, ids cut to a sample', async () => {
    const result = await handlers.findings({});
    assert.deepEqual(Object.fromEntries(result.findings.map((f) => [f.kind, f.rollouts])), SEEDED_COUNTS);
    assert.equal(result.scanned, 76);
  });

  it('reading again forgets the old marks', () => {
    data.clear();
    assert.equal(scan.result().scanned, 0);
    assert.equal(scan.has('refusal', 0), false);
  });
});
