import type { _Object } from '@aws-sdk/client-s3';
import { listAgentRuntimes } from '../../aws/agentcore';
import type { AwsClients } from '../../aws/clients';
import type { Explain } from '../../aws/errors';
import { listRoles } from '../../aws/iam';
import { listMlflowApps } from '../../aws/mlflowApps';
import { listTargetsByRule } from '../../aws/notifications';
import { listFolder, listObjectsV2, parseS3Uri } from '../../aws/s3';
import { checkRoleTrust } from '../../core/jobs/roleTrust';
import type { PricingTable } from '../../core/jobs/pricing';
import type { JobDetails } from '../../core/jobs/job';
import { EXCLUDED_REGION_REASON, regionsToCheck } from '../../core/jobs/regions';
import { jobPrefixes, jobUses, runningUsers, type ResourceRef } from '../../core/resources/references';
import { ruleOfArn } from '../../core/jobs/notifications';
import { s3MonthlyCost, spendOf, type Spend } from '../../core/resources/spend';
import { loadJobs, type UnreadableRegion } from './jobs';

/** One resource a job left behind, with the jobs that name it. */
export interface InventoryItem {
  ref: ResourceRef;
  /** The short name: runtime name, role name, app name, or the prefix URI. */
  label: string;
  region?: string;
  /** "READY", "Created · MLflow 3.4.0", "trusts job.sagemaker.amazonaws.com". */
  status?: string;
  jobs: string[];
  /** Running jobs that use it: a cleanup leaves it alone. */
  running: string[];
  /** S3 only: what the prefix holds. */
  size?: { objects: number; bytes: number };
  /** Dollars a month to keep it, where known (S3 storage). */
  monthlyCost?: number;
  /** S3 only: the prefix's sub-prefixes one level down that a listed job read or wrote (ListObjectsV2 with Delimiter "/"). */
  children?: InventoryItem[];
  /** S3 only: sub-prefixes no listed job read or wrote; deleting this prefix deletes them too. */
  untouched?: string[];
}

export interface Inventory {
  runtimes: InventoryItem[];
  roles: InventoryItem[];
  mlflowApps: InventoryItem[];
  prefixes: InventoryItem[];
  /** The EventBridge rules launches made for the jobs' notifications (named by their tags), where they still exist. */
  notificationRules: InventoryItem[];
  /** The jobs of every region checked: an account-wide resource (role, S3) is unused only if none of them runs with it. */
  jobs: JobDetails[];
  /** The regions whose jobs were read: the service's regions and the user's, but those taken out of scope or unreadable. */
  regionsChecked: string[];
  /** Regions whose jobs could not be read: roles and S3 prefixes are then refused. */
  unreadableRegions: UnreadableRegion[];
  /** Regions whose jobs were not read, and why: taken out of scope by name, or unreadable. */
  regionsNotChecked: UnreadableRegion[];
  spend: Spend;
  /** A sentence per section that could not be listed (the rest is still shown). */
  problems: string[];
}

interface InventoryOptions {
  /** The user's regions: runtimes and MLflow apps are listed there; jobs in these and every MTRL region. */
  regions: readonly string[];
  /** Regions whose jobs are not read (taken out of scope by name). */
  excludedRegions?: readonly string[];
  pricing: PricingTable;
  now: Date;
  explain: Explain;
  signal?: AbortSignal;
}

/** Everything the jobs of the regions left behind, each with the jobs that use it, and the token spend. */
export async function loadInventory(aws: AwsClients, options: InventoryOptions): Promise<Inventory> {
  const { regions, signal } = options;
  const excluded = regionsToCheck(regions).filter((r) => options.excludedRegions?.includes(r));
  const { jobs, regions: regionsChecked, unreadable } = await loadJobs(aws, regionsToCheck(regions, excluded), options.explain, signal);
  const problems = unreadable.map((u) => u.reason);
  const section = async <T>(action: string, load: () => Promise<T[]>): Promise<T[]> => {
    try {
      return await load();
    } catch (error) {
      if (signal?.aborted) throw error;
      problems.push(options.explain(error, action));
      return [];
    }
  };
  const item = (ref: ResourceRef, rest: Omit<InventoryItem, 'ref' | 'jobs' | 'running'>): InventoryItem => ({
    ref,
    ...rest,
    jobs: jobs.filter((j) => jobUses(j, ref)).map((j) => j.name),
    running: runningUsers(ref, jobs).map((j) => j.name),
  });

  const runtimes = await section('list agent runtimes', async () => {
    const out: InventoryItem[] = [];
    for (const region of regions) {
      for await (const r of listAgentRuntimes(aws.agentCoreControl(region), signal)) {
        if (r.agentRuntimeArn)
          out.push(
            item(
              { kind: 'runtime', id: r.agentRuntimeArn },
              { label: r.agentRuntimeName ?? r.agentRuntimeId ?? r.agentRuntimeArn, region, status: r.status },
            ),
          );
      }
    }
    return out;
  });
  const usedRoles = new Set(jobs.map((j) => j.roleArn).filter(Boolean));
  const roles = await section('list IAM roles', async () => {
    const out: InventoryItem[] = [];
    for await (const role of listRoles(aws.iam(), signal)) {
      if (usedRoles.has(role.arn))
        out.push(
          item(
            { kind: 'role', id: role.arn },
            { label: role.roleName, status: checkRoleTrust(role.arn, role.trustPolicy?.Statement).message },
          ),
        );
    }
    return out;
  });
  const mlflowApps = await section('list MLflow apps', async () => {
    const out: InventoryItem[] = [];
    for (const region of regions) {
      for await (const app of listMlflowApps(aws.sagemaker(region), signal)) {
        const status = [app.status, app.mlflowVersion && `MLflow ${app.mlflowVersion}`].filter(Boolean).join(' · ');
        out.push(item({ kind: 'mlflowApp', id: app.arn }, { label: app.name, region, status }));
      }
    }
    return out;
  });
  const prefixes = await section('list S3 objects', () => s3Prefixes(aws, jobs, item, signal));
  const notificationRules = await section('read notification rules', () => rulesOf(aws, jobs, item, signal));
  return {
    runtimes,
    roles,
    mlflowApps,
    prefixes,
    notificationRules,
    jobs,
    regionsChecked,
    unreadableRegions: unreadable,
    regionsNotChecked: [...excluded.map((region) => ({ region, reason: EXCLUDED_REGION_REASON })), ...unreadable],
    spend: spendOf(jobs, options.pricing, options.now),
    problems,
  };
}

type ItemOf = (ref: ResourceRef, rest: Omit<InventoryItem, 'ref' | 'jobs' | 'running'>) => InventoryItem;

/** The folders jobs read from or wrote to, with counts, sizes and the sub-prefixes a job used (the others named, never offered). */
async function s3Prefixes(aws: AwsClients, jobs: readonly JobDetails[], item: ItemOf, signal?: AbortSignal): Promise<InventoryItem[]> {
  const out: InventoryItem[] = [];
  for (const uri of jobPrefixes(jobs)) {
    const location = parseS3Uri(uri);
    if (!location) continue;
    const objects: _Object[] = [];
    for await (const o of listObjectsV2(aws.s3(), location.bucket, location.key, signal)) objects.push(o);
    const subPrefixes: string[] = [];
    for await (const entry of listFolder(aws.s3(), location.bucket, location.key, signal))
      if (entry.kind === 'folder') subPrefixes.push(entry.prefix);
    const sizeOf = (keyPrefix: string) => {
      const under = objects.filter((o) => o.Key?.startsWith(keyPrefix));
      const bytes = under.reduce((sum, o) => sum + (o.Size ?? 0), 0);
      return { size: { objects: under.length, bytes }, monthlyCost: s3MonthlyCost(bytes) };
    };
    const used = (p: string) => jobs.some((j) => jobUses(j, { kind: 's3Prefix', id: `s3://${location.bucket}/${p}` }));
    const children = subPrefixes
      .filter(used)
      .map((p) => item({ kind: 's3Prefix', id: `s3://${location.bucket}/${p}` }, { label: p.slice(location.key.length), ...sizeOf(p) }));
    const untouched = subPrefixes.filter((p) => !used(p)).map((p) => p.slice(location.key.length));
    out.push(
      item({ kind: 's3Prefix', id: uri }, { label: uri, ...sizeOf(location.key), children, ...(untouched.length ? { untouched } : {}) }),
    );
  }
  return out;
}

/** The rules the jobs' tags name that still exist, each with where it sends (its targets). */
async function rulesOf(aws: AwsClients, jobs: readonly JobDetails[], item: ItemOf, signal?: AbortSignal): Promise<InventoryItem[]> {
  const out: InventoryItem[] = [];
  for (const arn of new Set(jobs.flatMap((j) => (j.notifications?.ruleArn ? [j.notifications.ruleArn] : [])))) {
    const { region, bus, name } = ruleOfArn(arn);
    try {
      const targets = await listTargetsByRule(aws.events(region), name, bus, signal);
      out.push(
        item(
          { kind: 'notificationRule', id: arn },
          { label: name, region, status: `→ ${targets.map((t) => t.Arn).join(', ') || 'no target'}` },
        ),
      );
    } catch (error) {
      // Deleted since (by hand, or by the cleanup of another job's rule): nothing is left behind.
      if ((error as { name?: string }).name !== 'ResourceNotFoundException') throw error;
    }
  }
  return out;
}

/** Every item, sub-prefixes included: what a cleanup can name. */
export function allItems(inventory: Inventory): InventoryItem[] {
  const flat = (items: InventoryItem[]): InventoryItem[] => items.flatMap((i) => [i, ...flat(i.children ?? [])]);
  return flat([...inventory.runtimes, ...inventory.roles, ...inventory.mlflowApps, ...inventory.prefixes, ...inventory.notificationRules]);
}
