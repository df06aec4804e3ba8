import type { IAMClient } from '@aws-sdk/client-iam';
import { sdk } from './sdkLoader';

interface TrustStatement {
  Effect?: string;
  Principal?: { Service?: string | string[]; AWS?: string | string[] } | string;
  Action?: string | string[];
  Condition?: unknown;
}

interface RoleInfo {
  roleName: string;
  arn: string;
  /** The AssumeRolePolicyDocument, decoded and parsed (undefined when absent or unreadable). */
  trustPolicy?: { Version?: string; Statement?: TrustStatement[] };
  created?: Date;
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

/** Every role of the account, page after page (IAM's Marker), with its trust policy. */
export async function* listRoles(client: IAMClient, signal?: AbortSignal): AsyncIterable<RoleInfo> {
  let marker: string | undefined;
  do {
    const page = await client.send(new (sdk().ListRolesCommand)({ Marker: marker }), { abortSignal: signal });
    for (const r of page.Roles ?? [])
      yield {
        roleName: r.RoleName ?? '',
        arn: r.Arn ?? '',
        trustPolicy: parseTrustPolicy(r.AssumeRolePolicyDocument),
        created: r.CreateDate,
      };
    marker = page.IsTruncated ? page.Marker : undefined;
  } while (marker);
}

/** The role's policies: managed ones attached (ARNs) and inline ones (names). */
export async function rolePolicies(
  client: IAMClient,
  roleName: string,
  signal?: AbortSignal,
): Promise<{ attached: string[]; inline: string[] }> {
  const attached: string[] = [];
  const inline: string[] = [];
  let marker: string | undefined;
  do {
    const page = await client.send(new (sdk().ListAttachedRolePoliciesCommand)({ RoleName: roleName, Marker: marker }), {
      abortSignal: signal,
    });
    for (const p of page.AttachedPolicies ?? []) if (p.PolicyArn) attached.push(p.PolicyArn);
    marker = page.IsTruncated ? page.Marker : undefined;
  } while (marker);
  do {
    const page = await client.send(new (sdk().ListRolePoliciesCommand)({ RoleName: roleName, Marker: marker }), { abortSignal: signal });
    inline.push(...(page.PolicyNames ?? []));
    marker = page.IsTruncated ? page.Marker : undefined;
  } while (marker);
  return { attached, inline };
}

export async function detachRolePolicy(client: IAMClient, roleName: string, policyArn: string, signal?: AbortSignal): Promise<void> {
  await client.send(new (sdk().DetachRolePolicyCommand)({ RoleName: roleName, PolicyArn: policyArn }), { abortSignal: signal });
}

export async function deleteRolePolicy(client: IAMClient, roleName: string, policyName: string, signal?: AbortSignal): Promise<void> {
  await client.send(new (sdk().DeleteRolePolicyCommand)({ RoleName: roleName, PolicyName: policyName }), { abortSignal: signal });
}

/** Deletes a role; IAM refuses (DeleteConflict) while policies are still attached or inline. */
export async function deleteRole(client: IAMClient, roleName: string, signal?: AbortSignal): Promise<void> {
  await client.send(new (sdk().DeleteRoleCommand)({ RoleName: roleName }), { abortSignal: signal });
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
