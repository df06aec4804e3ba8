import { viewDeadline } from '../../services/viewDeadline';
import * as vscode from 'vscode';
import { formatDollars } from '../../core/jobs/pricing';
import { isRegionName } from '../../core/jobs/regions';
import { awsCleanupTarget } from '../../services/resources/awsTarget';
import { loadInventory, type Inventory } from '../../services/resources/inventory';
import { jobRegions } from '../aws/settings';
import type { Services } from '../services';
import { ResourcesTreeProvider } from './tree';
import { resourcesFailure } from '../../services/resources/tree';

const AGENTCORE_APART = 'AgentCore compute is billed apart and not visible here.';

/** The Resources view: what jobs left behind and still bills, the token spend, and Clean Up. */
export function register(services: Services): void {
  const { context, output } = services;
  const tree = new ResourcesTreeProvider();
  const view = vscode.window.createTreeView('mtrl.resources', { treeDataProvider: tree, manageCheckboxStateManually: true });
  let inventory: Inventory | undefined;
  let loading: Promise<Inventory | undefined> | undefined;

  // mtrl.cleanup.excludeRegions: names that are no region are left out (package.json's pattern flags them in the editor), and never the region in use.
  const excludedRegions = () => services.settings.get('cleanup.excludeRegions').filter((r) => isRegionName(r) && !jobRegions().includes(r));
  const refresh = async (): Promise<Inventory | undefined> => {
    const pricing = services.settings.pricing();
    const deadline = viewDeadline();
    try {
      inventory = await loadInventory(services.aws, {
        regions: jobRegions(),
        excludedRegions: excludedRegions(),
        pricing,
        now: new Date(),
        explain: services.explain,
        signal: deadline.signal,
      });
      tree.show(inventory);
      view.description = `${formatDollars(inventory.spend.monthToDate)} this month`;
      view.message = `Token spend month to date: ${formatDollars(inventory.spend.monthToDate)} (BillableTokenUsage × mtrl.pricing). ${AGENTCORE_APART} Roles and S3 checked against the jobs of ${inventory.regionsChecked.join(', ')}.`;
      return inventory;
    } catch (error) {
      inventory = undefined;
      const what = 'Listing what your jobs left behind';
      tree.showMessage(resourcesFailure(deadline.failure(error, what, services.explain)));
      view.message = undefined;
      return undefined;
    }
  };
  // One listing at a time: a refresh asked for while one runs gets that one's answer.
  const load = (): Promise<Inventory | undefined> => {
    loading ??= Promise.resolve(vscode.window.withProgress({ location: { viewId: 'mtrl.resources' } }, refresh)).finally(
      () => (loading = undefined),
    );
    return loading;
  };

  context.subscriptions.push(
    tree,
    view,
    view.onDidChangeCheckboxState((e) => {
      for (const [node, state] of e.items) {
        if (node.kind !== 'item') continue;
        if (state === vscode.TreeItemCheckboxState.Checked) tree.checked.add(node.item.ref.id);
        else tree.checked.delete(node.item.ref.id);
      }
    }),
    view.onDidChangeVisibility((e) => {
      if (e.visible && !inventory) void load();
    }),
    services.onDidChangeAws(() => view.visible && void load()),
    vscode.commands.registerCommand('mtrl.refreshResources', load),
    vscode.commands.registerCommand('mtrl.cleanUpResources', async () => {
      const current = inventory ?? (await load());
      if (!current) return undefined;
      // The clean-up flow loads on first use: the build maps './cleanupFlow' to dist/cleanup.js.
      // eslint-disable-next-line @typescript-eslint/no-require-imports
      const { cleanUp } = require('./cleanupFlow') as typeof import('./cleanupFlow');
      const outcome = await cleanUp(
        current,
        tree.checked,
        awsCleanupTarget(services.aws, jobRegions(), services.explain, excludedRegions()),
        output,
      );
      if (outcome) {
        tree.checked.clear();
        await load();
      }
      return outcome;
    }),
  );
  if (view.visible) void load();
}
