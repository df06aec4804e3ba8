import type { IAMClient } from '@aws-sdk/client-iam';
import { sdk } from './sdkLoader';

export interface TrustStatement {
  Effect?: string;
  Principal?: { Service?: string | string[]; AWS?: string | string[] } | string;
  Action?: string | string[];
  Condition?: unknown;
}

export interface RoleInfo {
  roleName: string;
  arn: string;
  /** The AssumeRolePolicyDocument, decoded and parsed (undefined when absent or unreadable). */
  trustPolicy?: { Version?: string; Statement?: TrustStatement[] };
}

/** The role name from an IAM role ARN (the part after the last `/`), or undefined when it is not a role ARN. */
export function roleNameFromArn(arn: string): string | undefined {
  const match = /^arn:aws[a-z-]*:iam::\d{12}:role\/(?:.*\/)?([\w+=,.@-]+)$/.exec(arn);
  return match?.[1];
}

export async function getRole(client: IAMClient, roleName: string, signal?: AbortSignal): Promise<RoleInfo> {
  const out = await client.send(new (sdk().GetRoleCommand)({ RoleName: roleName }), { abortSignal: signal });
  const role = out.Role;
  return { roleName: role?.RoleName ?? roleName, arn: role?.Arn ?? '', trustPolicy: parseTrustPolicy(role?.AssumeRolePolicyDocument) };
}

/** IAM returns the trust policy URL-encoded. */
function parseTrustPolicy(text: string | undefined): RoleInfo['trustPolicy'] {
  if (!text) return undefined;
  for (const candidate of [safeDecode(text), text]) {
    try {
      const value = JSON.parse(candidate) as RoleInfo['trustPolicy'];
      if (value && !Array.isArray(value.Statement) && value.Statement) value.Statement = [value.Statement as TrustStatement];
      return value;
    } catch {
      // Try the other form.
    }
  }
  return undefined;
}

function safeDecode(text: string): string {
  try {
    return decodeURIComponent(text);
  } catch {
    return text;
  }
}
