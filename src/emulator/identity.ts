import { ServiceError } from './protocol';
import { ACCOUNT, type World } from './world';

/** STS GetCallerIdentity: the emulator's caller is always the same user of account 111122223333. */
export function sts(operation: string): Record<string, unknown> {
  if (operation !== 'GetCallerIdentity') throw new ServiceError('InvalidAction', `The emulator does not implement STS ${operation}.`);
  return { Arn: `arn:aws:iam::${ACCOUNT}:user/mtrl-developer`, UserId: 'AIDAMTRLEMULATOR00001', Account: ACCOUNT };
}

/** IAM GetRole, with the trust policy URL-encoded as IAM returns it. */
export function iam(world: World, operation: string, params: URLSearchParams): Record<string, unknown> {
  if (operation !== 'GetRole') throw new ServiceError('InvalidAction', `The emulator does not implement IAM ${operation}.`);
  const name = params.get('RoleName') ?? '';
  const role = world.roles.get(name);
  if (!role) throw new ServiceError('NoSuchEntity', `The role with name ${name} cannot be found.`, 404);
  return {
    Role: {
      Path: '/',
      RoleName: role.name,
      RoleId: `AROA${Buffer.from(role.name).toString('hex').slice(0, 16).toUpperCase()}`,
      Arn: role.arn,
      CreateDate: new Date(role.created),
      AssumeRolePolicyDocument: encodeURIComponent(JSON.stringify(role.trustPolicy)),
      MaxSessionDuration: 3600,
    },
  };
}
