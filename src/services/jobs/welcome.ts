import type { JobsModel } from './model';

/**
 * What the whole Jobs view has to say when it is one sentence: every root without credentials, or every root listed
 * empty with no filter set (the view's welcome content then); '' when it has rows to show. Lists the roots first.
 */
export async function jobsWelcome(model: JobsModel): Promise<'credentials' | 'empty' | ''> {
  const roots = model.getRoots();
  await Promise.all(roots.map((root) => model.ensureLoaded(root)));
  if (!roots.length) return '';
  if (roots.every((root) => root.error?.message === 'credentials')) return 'credentials';
  const filtered = Boolean(model.query.nameContains || model.query.status);
  return !filtered && roots.every((root) => !root.error && !root.jobs.length) ? 'empty' : '';
}
