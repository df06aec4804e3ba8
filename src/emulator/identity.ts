import { ServiceError } from './protocol';
import { ACCOUNT, type Role, type World } from './world';

type Answer = Record<string, unknown>;

/** STS: the emulator's caller is always the same user of account 111122223333. */
const STS: Record<string, () => Answer> = {
  GetCallerIdentity: () => ({ Arn: `arn:aws:iam::${ACCOUNT}:user/mtrl-developer`, UserId: 'AIDAMTRLEMULATOR00001', Account: ACCOUNT }),
};

/** Every STS operation served: the routing itself, so the service-model test drives each one. */
export const STS_OPERATIONS: readonly string[] = Object.keys(STS);

export function sts(operation: string): Answer {
  if (!Object.hasOwn(STS, operation)) throw new ServiceError('InvalidAction', `The emulator does not implement STS ${operation}.`);
  return STS[operation]();
}

/** Every emulated role sits at the root path. */
const ROLE_PATH = '/';

function roleJson(role: Role): Record<string, unknown> {
  return {
    Path: ROLE_PATH,
    RoleName: role.name,
    RoleId: `AROA${Buffer.from(role.name).toString('hex').slice(0, 16).toUpperCase()}`,
    Arn: role.arn,
    CreateDate: new Date(role.created),
    AssumeRolePolicyDocument: encodeURIComponent(JSON.stringify(role.trustPolicy)),
    MaxSessionDuration: 3600,
  };
}

function roleOf(world: World, params: URLSearchParams): Role {
  const name = params.get('RoleName') ?? '';
  const role = world.roles.get(name);
  if (!role) throw new ServiceError('NoSuchEntity', `The role with name ${name} cannot be found.`, 404);
  return role;
}

/** IAM pages by `Marker` (an offset here) and `MaxItems` (default 100). */
function page<T>(items: T[], params: URLSearchParams): { items: T[]; IsTruncated: boolean; Marker?: string } {
  const start = Number(params.get('Marker') ?? 0);
  const max = Number(params.get('MaxItems') ?? 100);
  const next = start + max;
  return { items: items.slice(start, next), IsTruncated: next < items.length, Marker: next < items.length ? String(next) : undefined };
}

/** IAM roles and their policies, with the trust policy URL-encoded as IAM returns it; DeleteRole refuses while policies remain, as IAM does. */
const IAM: Record<string, (world: World, params: URLSearchParams) => Answer> = {
  GetRole: (world, params) => ({ Role: roleJson(roleOf(world, params)) }),
  ListRoles: (world, params) => {
    const prefix = params.get('PathPrefix') ?? '/';
    const { items, ...rest } = page(
      [...world.roles.values()].filter(() => ROLE_PATH.startsWith(prefix)).sort((a, b) => (a.name < b.name ? -1 : 1)),
      params,
    );
    return { Roles: { member: items.map(roleJson) }, ...rest };
  },
  ListRolePolicies: (world, params) => {
    const { items, ...rest } = page([...roleOf(world, params).inlinePolicies.keys()], params);
    return { PolicyNames: { member: items }, ...rest };
  },
  ListAttachedRolePolicies: (world, params) => {
    const { items, ...rest } = page(roleOf(world, params).attachedPolicies, params);
    return { AttachedPolicies: { member: items.map((arn) => ({ PolicyName: arn.split('/').pop(), PolicyArn: arn })) }, ...rest };
  },
  DetachRolePolicy: (world, params) => {
    const role = roleOf(world, params);
    const arn = params.get('PolicyArn') ?? '';
    if (!role.attachedPolicies.includes(arn))
      throw new ServiceError('NoSuchEntity', `Policy ${arn} was not found or is not attached to role ${role.name}.`, 404);
    role.attachedPolicies = role.attachedPolicies.filter((a) => a !== arn);
    return {};
  },
  DeleteRolePolicy: (world, params) => {
    const role = roleOf(world, params);
    const name = params.get('PolicyName') ?? '';
    if (!role.inlinePolicies.delete(name))
      throw new ServiceError('NoSuchEntity', `The role policy with name ${name} cannot be found.`, 404);
    return {};
  },
  DeleteRole: (world, params) => {
    const role = roleOf(world, params);
    if (role.attachedPolicies.length)
      throw new ServiceError('DeleteConflict', 'Cannot delete entity, must detach all policies first.', 409);
    if (role.inlinePolicies.size) throw new ServiceError('DeleteConflict', 'Cannot delete entity, must delete policies first.', 409);
    world.roles.delete(role.name);
    return {};
  },
};

/** Every IAM operation served: the routing itself, so the service-model test drives each one. */
export const IAM_OPERATIONS: readonly string[] = Object.keys(IAM);

export function iam(world: World, operation: string, params: URLSearchParams): Answer {
  if (!Object.hasOwn(IAM, operation)) throw new ServiceError('InvalidAction', `The emulator does not implement IAM ${operation}.`);
  return IAM[operation](world, params);
}
