import type { ParseArgsConfig } from 'node:util';
import { AwsClients, type AwsSettings } from '../aws/clients';
import { explainerFor, type Explain } from '../aws/errors';

/** The options every AWS command takes: `--region`, `--endpoint` (also AWS_ENDPOINT_URL), `--profile`. */
export const AWS_OPTIONS = {
  region: { type: 'string' },
  endpoint: { type: 'string' },
  profile: { type: 'string' },
} satisfies ParseArgsConfig['options'];

export const AWS_OPTIONS_USAGE = `  --region    AWS region (default: AWS_REGION, else us-east-1)
  --endpoint  one endpoint for every AWS call, e.g. the emulator's URL (default: AWS_ENDPOINT_URL)
  --profile   AWS profile from ~/.aws`;

/** The region a command looks in: --region, else the environment's, else us-east-1. */
export function regionFrom(values: { region?: string }): string {
  return values.region ?? process.env.AWS_REGION ?? process.env.AWS_DEFAULT_REGION ?? 'us-east-1';
}

/** Clients for the flags, and the one sentence for an AWS error that names the profile, region and endpoint (and the deadline, once `signal` aborted at it). */
export function awsFromOptions(
  values: { region?: string; endpoint?: string; profile?: string },
  signal?: AbortSignal,
): { aws: AwsClients; settings: AwsSettings; explain: Explain } {
  const settings: AwsSettings = {
    region: regionFrom(values),
    endpoint: values.endpoint ?? (process.env.AWS_ENDPOINT_URL || undefined),
    profile: values.profile,
  };
  const aws = new AwsClients(() => settings);
  return { aws, settings, explain: explainerFor(() => settings, signal) };
}
