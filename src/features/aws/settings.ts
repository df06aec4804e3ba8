import type { AwsSettings } from '../../aws/clients';
import { setting, writeSetting } from '../settings';

const DEFAULT_REGION = 'us-east-1';

/** The AWS settings as they are now (`mtrl.aws.*`); empty strings mean "not set". */
export function readAwsSettings(): AwsSettings {
  const profile = setting('aws.profile')?.trim() || undefined;
  const endpoint = setting('aws.endpoint')?.trim() || undefined;
  const region = setting('aws.region')?.trim() || DEFAULT_REGION;
  const timeout = setting('aws.timeoutSeconds');
  return { profile, region, endpoint, requestTimeoutMs: timeout && timeout > 0 ? timeout * 1000 : undefined };
}

/** Regions the jobs tree lists (`mtrl.aws.regions`); the current region when the setting is empty. */
export function jobRegions(): string[] {
  const configured = setting('aws.regions') ?? [];
  const regions = configured.map((r) => r.trim()).filter(Boolean);
  return regions.length ? [...new Set(regions)] : [readAwsSettings().region];
}

/** Writes the profile or region where the user keeps it (workspace or user settings). */
export async function writeAwsSetting(name: 'profile' | 'region', value: string | undefined): Promise<void> {
  await writeSetting(`aws.${name}`, value);
}
