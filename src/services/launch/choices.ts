import type { AwsClients } from '../../aws/clients';
import { listRoles } from '../../aws/iam';
import { listMlflowApps } from '../../aws/mlflowApps';

// What the launch wizard offers to pick from, listed through this layer so the wizard names no AWS client.

/** Every IAM role of the account, page after page. */
export function rolesToPick(aws: AwsClients, signal?: AbortSignal): ReturnType<typeof listRoles> {
  return listRoles(aws.iam(), signal);
}

/** Every MLflow app of a region, page after page. */
export function mlflowAppsToPick(aws: AwsClients, region: string, signal?: AbortSignal): ReturnType<typeof listMlflowApps> {
  return listMlflowApps(aws.sagemaker(region), signal);
}
