import * as vscode from 'vscode';
import type { AwsSettings } from '../../aws/clients';
import { setting, writeSetting } from '../settings';

/** The local emulator started for this window (Try the Local Emulator): it wins over the settings until the window closes. */
let windowEndpoint: { endpoint: string; region: string } | undefined;

const windowEndpointChanged = new vscode.EventEmitter<void>();
/** Fired when this window's endpoint changes: the AWS services build new clients and trees refresh, as after a settings change. */
export const onDidChangeWindowEndpoint = windowEndpointChanged.event;

/** Points this window's AWS calls at `endpoint` (undefined: back to the settings). */
export function useEndpointForWindow(endpoint: { endpoint: string; region: string } | undefined): void {
  windowEndpoint = endpoint;
  windowEndpointChanged.fire();
}

/** The AWS settings as they are now (`mtrl.aws.*`); empty strings mean "not set". */
export function readAwsSettings(): AwsSettings {
  if (windowEndpoint)
    return { region: windowEndpoint.region, endpoint: windowEndpoint.endpoint, requestTimeoutMs: setting('aws.timeoutSeconds') * 1000 };
  return {
    profile: setting('aws.profile') || undefined,
    region: setting('aws.region'),
    endpoint: setting('aws.endpoint') || undefined,
    requestTimeoutMs: setting('aws.timeoutSeconds') * 1000,
  };
}

/** Regions the jobs tree lists (`mtrl.aws.regions`); the current region when the setting is empty. */
export function jobRegions(): string[] {
  if (windowEndpoint) return [windowEndpoint.region];
  const regions = setting('aws.regions').map((r) => r.trim());
  return regions.length ? [...new Set(regions)] : [readAwsSettings().region];
}

/** Writes the profile or region where the user keeps it (workspace or user settings). */
export async function writeAwsSetting(name: 'profile' | 'region', value: string | undefined): Promise<void> {
  await writeSetting(`aws.${name}`, value);
}
