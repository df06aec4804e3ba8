import type { AwsClients } from '../aws/clients';
import type { Explain } from '../aws/errors';
import { DocumentSchemas } from '../core/jobs/documentSchema';
import type { CheckResult } from '../core/jobs/preflight';
import { DEFAULT_PRICING } from '../core/jobs/pricing';
import type { LaunchDeps } from '../services/launch/launch';
import { ModelCatalog } from '../services/launch/modelCatalog';

const SEVERITY = { fail: 'error', warn: 'warning', pass: 'info' } as const;

/** One finding as `mtrl launch --json` and `mtrl resume --json` print it: the check's id, error|warning|info, the sentence and its fix. */
export function findingOf(c: CheckResult) {
  return { code: c.check, severity: SEVERITY[c.level], message: c.message, ...(c.fix && c.level !== 'pass' && { fix: c.fix }) };
}

/** What the editor's launcher passes, without its settings: the static model table, the default prices, no smoke record. */
export function cliLaunchDeps(aws: AwsClients, explain: Explain, lambdaSmoke = false): LaunchDeps {
  return {
    aws,
    schemas: new DocumentSchemas(),
    models: new ModelCatalog(aws, () => []),
    explain,
    pricing: () => DEFAULT_PRICING,
    smokeResults: () => ({}),
    log: () => undefined,
    lambdaSmoke,
  };
}
