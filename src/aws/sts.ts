import type { STSClient } from '@aws-sdk/client-sts';
import { sdk } from './sdkLoader';

interface CallerIdentity {
  account: string;
  arn: string;
  userId: string;
}

/** Who the current credentials belong to; the account id goes into job ARNs of smoke tests. */
export async function callerIdentity(client: STSClient, signal?: AbortSignal): Promise<CallerIdentity> {
  const out = await client.send(new (sdk().GetCallerIdentityCommand)({}), { abortSignal: signal });
  return { account: out.Account ?? '', arn: out.Arn ?? '', userId: out.UserId ?? '' };
}
