import { strict as assert } from 'node:assert';
import { describeAwsError } from '../../../../src/aws/errors';
import { DEFAULT_PRICING } from '../../../../src/core/jobs/pricing';
import { ManualClock } from '../../../../src/emulator/clock';
import { loadInventory, type Inventory } from '../../../../src/services/resources/inventory';
import { resourcesChildren, resourcesFailure, type ResourcesTreeNode } from '../../../../src/services/resources/tree';
import { MessageNode } from '../../../../src/services/treeNodes';
import { withEmulator } from '../../emulator/helpers';
import { ceiling } from '../../../host/lib/ceiling';

/** Every node of the tree, depth first, as VS Code would ask for them. */
function walk(inv: Inventory, node?: ResourcesTreeNode): ResourcesTreeNode[] {
  return resourcesChildren(inv, node).flatMap((child) => [child, ...walk(inv, child)]);
}

describe('Resources view model (no VS Code)', function () {
  this.timeout(ceiling(60_000));

  it('shows the seeded inventory as sections with their rows, every id once (VS Code refuses a repeated id)', () =>
    withEmulator({ clock: new ManualClock() }, async (_emulator, aws) => {
      const inv = await loadInventory(aws, {
        regions: ['us-east-1'],
        pricing: DEFAULT_PRICING,
        now: new Date(),
        explain: (e, action) => describeAwsError(e, { action }),
      });
      const top = resourcesChildren(inv);
      assert.deepEqual(
        top.map((n) => n.id),
        [
          ...inv.problems.map((_, i) => `#problem${i}`),
          'section:spend',
          'section:runtime',
          'section:role',
          'section:mlflowApp',
          'section:s3Prefix',
          'section:notificationRule',
        ],
      );
      const runtimes = top.find((n) => n.id === 'section:runtime')!;
      assert.ok(runtimes.kind === 'section' && runtimes.count === inv.runtimes.length && runtimes.count > 0);
      assert.deepEqual(
        resourcesChildren(inv, runtimes).map((n) => n.id),
        inv.runtimes.map((r) => r.ref.id),
      );
      const all = walk(inv);
      assert.equal(new Set(all.map((n) => n.id)).size, all.length);
      assert.ok(
        all.some((n) => n.kind === 'item' && n.parent.kind === 'item'),
        'an S3 prefix has the sub-prefixes jobs used below it',
      );
    }));

  it('says which sections are empty and shows each problem as its own warning', () => {
    const inv: Inventory = {
      runtimes: [],
      roles: [],
      mlflowApps: [],
      prefixes: [],
      notificationRules: [],
      jobs: [],
      regionsChecked: ['us-east-1'],
      unreadableRegions: [],
      regionsNotChecked: [],
      spend: { monthToDate: 0, jobs: [], unpriced: [] },
      problems: ['Listing MLflow apps failed: access denied.', 'Listing agent runtimes failed: access denied.'],
    };
    const top = resourcesChildren(inv);
    const problems = top.filter((n): n is MessageNode => n instanceof MessageNode);
    assert.deepEqual(
      problems.map((n) => [n.id, n.message, n.text]),
      inv.problems.map((text, i) => [`#problem${i}`, 'warning', text]),
    );
    const [empty] = resourcesChildren(
      inv,
      top.find((n) => n.id === 'section:role'),
    );
    assert.ok(empty instanceof MessageNode);
    assert.deepEqual([empty.id, empty.message, empty.text], ['section:role#empty', 'empty', 'No role is named by a job.']);
  });

  it('turns a failed load into Retry, or Choose AWS profile when there are no credentials', () => {
    const failed = resourcesFailure({ kind: 'unreachable', sentence: 'Listing what your jobs left behind failed.' });
    assert.deepEqual([failed.id, failed.message, failed.fix?.command], ['#error', 'error', 'mtrl.refreshResources']);
    assert.equal(resourcesFailure({ kind: 'no-credentials', sentence: 'No credentials.' }).fix?.command, 'mtrl.chooseProfile');
  });
});
