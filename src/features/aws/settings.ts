import type { AwsSettings } from '../../aws/clients';
import { setting, writeSetting } from '../settings';

/** The AWS settings as they are now (`mtrl.aws.*`); empty strings mean "not set". */
export function readAwsSettings(): AwsSettings {
  return {
    profile: setting('aws.profile') || undefined,
    region: setting('aws.region'),
    endpoint: setting('aws.endpoint') || undefined,
    requestTimeoutMs: setting('aws.timeoutSeconds') * 1000,
  };
}

/** Regions the jobs tree lists (`mtrl.aws.regions`); the current region when the setting is empty. */
export function jobRegions(): string[] {
  const regions = setting('aws.regions').map((r) => r.trim());
  return regions.length ? [...new Set(regions)] : [readAwsSettings().region];
}

/** Writes the profile or region where the user keeps it (workspace or user settings). */
export async function writeAwsSetting(name: 'profile' | 'region', value: string | undefined): Promise<void> {
  await writeSetting(`aws.${name}`, value);
}
