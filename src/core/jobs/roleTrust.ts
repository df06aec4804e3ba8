import type { CheckResult } from './preflight';

const fail = (message: string, fix: string): CheckResult => ({ check: 'role', level: 'fail', message, fix, key: 'RoleArn' });

/** A trust policy statement as IAM returns it. */
interface TrustStatement {
  Effect?: string;
  Principal?: { Service?: string | string[]; AWS?: string | string[] } | string;
  Action?: string | string[];
}

const JOB_PRINCIPAL = 'job.sagemaker.amazonaws.com';
const list = (v: string | string[] | undefined) => (v === undefined ? [] : Array.isArray(v) ? v : [v]);

function services(s: TrustStatement): string[] {
  return typeof s.Principal === 'object' ? list(s.Principal.Service) : [];
}

/** Whether the job role trusts the job principal with the two actions the service needs, as a pre-flight line. */
export function checkRoleTrust(roleArn: string, statements: readonly TrustStatement[] | undefined, unreadable?: string): CheckResult {
  if (unreadable) return fail(`Role ${roleArn} could not be read: ${unreadable}`, 'Check the role ARN, or that you may call iam:GetRole.');
  const allowing = (statements ?? []).filter((s) => (s.Effect ?? 'Allow') === 'Allow');
  const forJobs = allowing.filter((s) => services(s).includes(JOB_PRINCIPAL));
  const actions = new Set(forJobs.flatMap((s) => list(s.Action)));
  const hasAll = actions.has('sts:*') || actions.has('*');
  const missing = ['sts:AssumeRole', 'sts:TagSession'].filter((a) => !hasAll && !actions.has(a));
  const fix = `Trust ${JOB_PRINCIPAL} with actions sts:AssumeRole and sts:TagSession, and attach AmazonSageMakerJobFullAccess.`;
  if (forJobs.length === 0) {
    const general = allowing.some((s) => services(s).includes('sagemaker.amazonaws.com'));
    const message = general
      ? `The role trusts sagemaker.amazonaws.com; the job needs ${JOB_PRINCIPAL} (the job would fail with "Could not assume role").`
      : `The role does not trust ${JOB_PRINCIPAL}; the job would fail with "Could not assume role".`;
    return fail(message, fix);
  }
  if (missing.length) return fail(`The role trusts ${JOB_PRINCIPAL} but does not allow ${missing.join(' and ')}.`, fix);
  return { check: 'role', level: 'pass', message: `Role trusts ${JOB_PRINCIPAL} with sts:AssumeRole and sts:TagSession.`, key: 'RoleArn' };
}
