import type { ServiceQuotasClient } from '@aws-sdk/client-service-quotas';
import { sdk } from './sdkLoader';

/** The applied value of one quota of a service (GetServiceQuota), or undefined when the service reports none. */
export async function serviceQuotaValue(
  client: ServiceQuotasClient,
  serviceCode: string,
  quotaCode: string,
  signal?: AbortSignal,
): Promise<number | undefined> {
  const out = await client.send(new (sdk().GetServiceQuotaCommand)({ ServiceCode: serviceCode, QuotaCode: quotaCode }), {
    abortSignal: signal,
  });
  return out.Quota?.Value;
}
