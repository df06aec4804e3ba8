import { deleteAgentRuntime } from '../../aws/agentcore';
import { runtimeIdFromArn } from '../../core/agentcore/runtimeArn';
import type { AwsClients } from '../../aws/clients';
import type { Explain } from '../../aws/errors';
import { deleteRole, deleteRolePolicy, detachRolePolicy, roleNameFromArn, rolePolicies } from '../../aws/iam';
import { deleteMlflowApp } from '../../aws/mlflowApps';
import { deleteRule } from '../../aws/notifications';
import { ruleOfArn } from '../../core/jobs/notifications';
import { deleteObjects, listObjectsV2, parseS3Uri } from '../../aws/s3';
import { regionsToCheck } from '../../core/jobs/regions';
import type { CleanupTarget } from './cleanup';
import { loadRunningJobs } from './jobs';

const regionOf = (arn: string) => arn.split(':')[3];

/** The cleanup's operations over the real SDK; running jobs are read in the user's regions and every MTRL region, but the excluded ones. */
export function awsCleanupTarget(
  aws: AwsClients,
  regions: readonly string[],
  explain: Explain,
  excluded: readonly string[] = [],
): CleanupTarget {
  return {
    runningJobs: (signal) => loadRunningJobs(aws, regionsToCheck(regions, excluded), explain, signal),
    async deleteRuntime(arn, signal) {
      await deleteAgentRuntime(aws.agentCoreControl(regionOf(arn)), runtimeIdFromArn(arn) ?? arn, signal);
    },
    async deleteRole(arn, step, signal) {
      const name = roleNameFromArn(arn) ?? arn;
      const { attached, inline } = await rolePolicies(aws.iam(), name, signal);
      for (const policy of attached) {
        step(`detaching ${policy.split('/').pop()}`);
        await detachRolePolicy(aws.iam(), name, policy, signal);
      }
      for (const policy of inline) {
        step(`deleting inline policy ${policy}`);
        await deleteRolePolicy(aws.iam(), name, policy, signal);
      }
      step('deleting the role');
      await deleteRole(aws.iam(), name, signal);
    },
    deleteMlflowApp: (arn, signal) => deleteMlflowApp(aws.sagemaker(regionOf(arn)), arn, signal),
    async deleteNotificationRule(arn, signal) {
      const { region, bus, name } = ruleOfArn(arn);
      await deleteRule(aws.events(region), name, bus, signal);
    },
    async *listKeys(prefixUri, signal) {
      const location = parseS3Uri(prefixUri);
      if (!location) return;
      for await (const o of listObjectsV2(aws.s3(), location.bucket, location.key, signal)) if (o.Key) yield o.Key;
    },
    async deleteKeys(prefixUri, keys, signal) {
      const location = parseS3Uri(prefixUri);
      return location ? deleteObjects(aws.s3(), location.bucket, keys, signal) : keys.map((key) => ({ key, reason: 'not an S3 URI' }));
    },
  };
}
