import type { AwsClients } from '../aws/clients';
import type { Explain } from '../aws/errors';
import { DEFAULT_PRICING, formatDollars } from '../core/jobs/pricing';
import { formatBytes } from '../services/resources/cleanupPlan';
import { loadInventory, type Inventory, type InventoryItem } from '../services/resources/inventory';
import { AWS_OPTIONS, AWS_OPTIONS_USAGE, awsFromOptions } from './awsOptions';
import { EXIT_CLEAN, EXIT_FINDINGS, parseOptions, UsageError, type CliCommand } from './command';

const usage = `Usage: mtrl resources [--region R] [--endpoint URL] [--profile P] [--json]

Lists what jobs left behind and what is still billing: the region's agent
runtimes and MLflow apps, and the job roles and S3 folders jobs read or wrote
(account-wide: the jobs of every MTRL region and --region are read), each with
the jobs that use it (running ones marked), and the token spend per job and
month to date at the default prices. AgentCore compute is billed apart and is
not visible here.

${AWS_OPTIONS_USAGE}
  --json      print the inventory as JSON

Exit code: 0 listed, 1 some resources could not be listed, 2 usage or I/O error.`;

function line(item: InventoryItem, indent = '  '): string[] {
  const parts = [item.label];
  if (item.status) parts.push(item.status);
  if (item.size) parts.push(`${item.size.objects} objects, ${formatBytes(item.size.bytes)}`);
  if (item.monthlyCost !== undefined) parts.push(`~${formatDollars(item.monthlyCost)}/month`);
  parts.push(item.jobs.length ? `jobs: ${item.jobs.join(', ')}` : 'no job uses it');
  if (item.running.length) parts.push(`IN USE by ${item.running.join(', ')}`);
  return [`${indent}${parts.join(' · ')}`, ...(item.children ?? []).flatMap((c) => line(c, `${indent}  `))];
}

function inventoryText(inventory: Inventory): string {
  const section = (title: string, items: InventoryItem[]) => [
    `${title} (${items.length})`,
    ...(items.length ? items.flatMap((i) => line(i)) : ['  none']),
  ];
  const { spend } = inventory;
  // The jobs' own totals span months: under their own heading, as the view has them, they do not read as this month's parts.
  const perJob = [
    ...spend.jobs.filter((j) => j.cost).map((j) => `  ${j.job.name}: ${formatDollars(j.cost?.total ?? 0)}`),
    ...(spend.unpriced.length ? [`  no price for the model of: ${spend.unpriced.join(', ')} (set mtrl.pricing)`] : []),
  ];
  return [
    `Jobs of ${inventory.regionsChecked.join(', ')} (every MTRL region and --region); runtimes and MLflow apps of --region.`,
    `Token spend month to date: ${formatDollars(spend.monthToDate)} (AgentCore compute is billed apart and not visible here)`,
    ...(perJob.length ? ['Token spend per job:', ...perJob] : []),
    ...section('Agent runtimes', inventory.runtimes),
    ...section('Job roles', inventory.roles),
    ...section('MLflow apps', inventory.mlflowApps),
    ...section('S3 prefixes', inventory.prefixes),
    ...section('Notification rules', inventory.notificationRules),
    ...inventory.problems.map((p) => `! ${p}`),
  ].join('\n');
}

/** The inventory without the jobs' whole documents: names, statuses and costs are what a script needs. */
function inventoryJson(inventory: Inventory) {
  const { spend, jobs, ...rest } = inventory;
  return {
    ...rest,
    jobs: jobs.map((j) => ({ name: j.name, category: j.category, region: j.region, status: j.status })),
    spend: {
      monthToDate: spend.monthToDate,
      unpriced: spend.unpriced,
      jobs: spend.jobs.map((j) => ({ name: j.job.name, cost: j.cost?.total })),
    },
  };
}

/** What `mtrl resources` lists and `mtrl cleanup` plans from: the inventory of the options' region at the published prices. */
export function regionInventory(
  aws: AwsClients,
  region: string,
  explain: Explain,
  signal?: AbortSignal,
  excludedRegions: readonly string[] = [],
): Promise<Inventory> {
  return loadInventory(aws, { regions: [region], excludedRegions, pricing: DEFAULT_PRICING, now: new Date(), explain, signal });
}

export const resourcesCommand: CliCommand = {
  name: 'resources',
  usage,
  async run(args, io) {
    const { values } = parseOptions(args, usage, {
      options: { ...AWS_OPTIONS, json: { type: 'boolean', default: false } },
    });
    const { aws, settings, explain } = awsFromOptions(values, io.signal);
    try {
      const inventory = await regionInventory(aws, settings.region, explain, io.signal);
      io.out(values.json ? JSON.stringify(inventoryJson(inventory), null, 2) : inventoryText(inventory));
      return inventory.problems.length ? EXIT_FINDINGS : EXIT_CLEAN;
    } catch (error) {
      throw new UsageError(explain(error, 'Listing resources'));
    } finally {
      aws.reset();
    }
  },
};
