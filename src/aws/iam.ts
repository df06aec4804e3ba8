import type { IAMClient } from '@aws-sdk/client-iam';
import { sdk } from './sdkLoader';
import { paginateItems } from './paginate';

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
  const roles = paginateItems(
    async (marker, pageSignal) => {
      const page = await client.send(new (sdk().ListRolesCommand)({ Marker: marker }), { abortSignal: pageSignal });
      return { items: page.Roles ?? [], next: page.IsTruncated ? page.Marker : undefined };
    },
    { what: 'IAM ListRoles', signal },
  );
  for await (const r of roles)
    yield {
      roleName: r.RoleName ?? '',
      arn: r.Arn ?? '',
      trustPolicy: parseTrustPolicy(r.AssumeRolePolicyDocument),
      created: r.CreateDate,
    };
}

/** The role's policies: managed ones attached (ARNs) and inline ones (names). */
export async function rolePolicies(
  client: IAMClient,
  roleName: string,
  signal?: AbortSignal,
): Promise<{ attached: string[]; inline: string[] }> {
  const attached: string[] = [];
  const inline: string[] = [];
  const attachedPolicies = paginateItems(
    async (marker, pageSignal) => {
      const page = await client.send(new (sdk().ListAttachedRolePoliciesCommand)({ RoleName: roleName, Marker: marker }), {
        abortSignal: pageSignal,
      });
      return { items: page.AttachedPolicies ?? [], next: page.IsTruncated ? page.Marker : undefined };
    },
    { what: `IAM ListAttachedRolePolicies of ${roleName}`, signal },
  );
  for await (const p of attachedPolicies) if (p.PolicyArn) attached.push(p.PolicyArn);
  const inlineNames = paginateItems(
    async (marker, pageSignal) => {
      const page = await client.send(new (sdk().ListRolePoliciesCommand)({ RoleName: roleName, Marker: marker }), {
        abortSignal: pageSignal,
      });
      return { items: page.PolicyNames ?? [], next: page.IsTruncated ? page.Marker : undefined };
    },
    { what: `IAM ListRolePolicies of ${roleName}`, signal },
  );
  for await (const name of inlineNames) inline.push(name);
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
