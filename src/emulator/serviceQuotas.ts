import { MTRL_QUOTAS, QUOTA_SERVICE_CODE } from '../core/jobs/quotas';
import { ServiceError } from './protocol';
import { ACCOUNT, type World } from './world';

type Input = Record<string, unknown>;

/**
 * The seeded quota values: one evaluation at a time (the service's default), and room for the hundreds of training jobs
 * tests and benches list (a real account's value is its own: a test sets 0 or 1 to see the limit).
 */
export const SEEDED_QUOTAS: Readonly<Record<string, number>> = {
  [MTRL_QUOTAS.AgentRFT.code]: 1000,
  [MTRL_QUOTAS.AgentRFTEvaluation.code]: 1,
};

/** The quota of a job category in the emulated account (every region alike). */
export function quotaOf(world: World, code: string): number {
  return world.quotas.get(code) ?? SEEDED_QUOTAS[code] ?? 0;
}

function getServiceQuota(world: World, input: Input, region: string): unknown {
  const service = String(input.ServiceCode ?? '');
  const code = String(input.QuotaCode ?? '');
  const known = Object.values(MTRL_QUOTAS).find((q) => q.code === code);
  if (service !== QUOTA_SERVICE_CODE || !known)
    throw new ServiceError('NoSuchResourceException', `The request failed because the specified quota ${service}/${code} does not exist.`);
  return {
    Quota: {
      ServiceCode: service,
      ServiceName: 'Amazon SageMaker',
      QuotaArn: `arn:aws:servicequotas:${region}:${ACCOUNT}:${service}/${code}`,
      QuotaCode: code,
      // The emulator's wording: the console's quota names are not in any source we hold.
      QuotaName: `Maximum number of ${known.what}`,
      Value: quotaOf(world, code),
      Unit: 'None',
      Adjustable: true,
      GlobalQuota: false,
    },
  };
}

const OPERATIONS: Record<string, (world: World, input: Input, region: string) => unknown> = { GetServiceQuota: getServiceQuota };

/** Every Service Quotas operation served (JSON 1.1, target `ServiceQuotasV20190624.<Operation>`). */
export const SERVICE_QUOTAS_OPERATIONS: readonly string[] = Object.keys(OPERATIONS);

export function serviceQuotas(world: World, operation: string, input: Input, region: string): unknown {
  if (!Object.hasOwn(OPERATIONS, operation))
    throw new ServiceError('UnknownOperationException', `The emulator does not implement Service Quotas ${operation}.`);
  return OPERATIONS[operation](world, input, region);
}
