// The pre-flight's account lines: the MTRL quota (Service Quotas) and the MLflow app's version (ListMlflowApps).
import type { AwsClients } from '../../aws/clients';
import type { Explainer } from '../../aws/errors';
import { listMlflowApps } from '../../aws/mlflowApps';
import { serviceQuotaValue } from '../../aws/serviceQuotas';
import { checkMlflowApp } from '../../core/jobs/mlflowVersion';
import type { CheckResult } from '../../core/jobs/preflight';
import { checkQuota, MTRL_QUOTAS, QUOTA_SERVICE_CODE, type QuotaReading } from '../../core/jobs/quotas';
import type { JobCategory } from '../../core/jobs/status';

/** Reads the job category's MTRL quota; denied, throttled or unlisted reads as "not checked (…)", never as a failure. */
export async function quotaCheck(
  aws: AwsClients,
  explain: Explainer,
  category: JobCategory,
  region: string,
  signal?: AbortSignal,
): Promise<CheckResult> {
  const { code } = MTRL_QUOTAS[category];
  let reading: QuotaReading;
  try {
    reading = { value: await serviceQuotaValue(aws.serviceQuotas(region), QUOTA_SERVICE_CODE, code, signal) };
  } catch (error) {
    signal?.throwIfAborted();
    const { kind, sentence } = explain.explained(error, `Reading quota ${code}`, region);
    const name = (error as { name?: string } | undefined)?.name;
    if (kind === 'access-denied') reading = { notChecked: `permission servicequotas:GetServiceQuota denied` };
    else if (kind === 'throttled') reading = { notChecked: 'Service Quotas throttled the call' };
    else if (name === 'NoSuchResourceException') reading = { notChecked: `Service Quotas does not list ${code} in ${region}` };
    else reading = { notChecked: sentence };
  }
  return checkQuota(category, region, reading);
}

/** The document's MLflow app against ListMlflowApps of the job's region (an app in another region is not listed). */
export async function mlflowCheck(
  aws: AwsClients,
  mlflowArn: string | undefined,
  region: string,
  signal?: AbortSignal,
): Promise<CheckResult | undefined> {
  if (!mlflowArn) return undefined;
  const appRegion = mlflowArn.split(':')[3] || region;
  for await (const app of listMlflowApps(aws.sagemaker(appRegion), signal))
    if (app.arn === mlflowArn) return checkMlflowApp(mlflowArn, { arn: app.arn, name: app.name, mlflowVersion: app.mlflowVersion }, true);
  return checkMlflowApp(mlflowArn, undefined, true);
}
