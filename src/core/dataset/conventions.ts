import { datasetChecks } from '../environments/registry';

/** Every dataset convention, for the setting, `mtrl validate --convention` and the checker: the generic ones and each pack's. */
export function datasetConventions(): string[] {
  return ['auto', ...datasetChecks().map((c) => c.convention), 'task', 'none'];
}
