/** The regions where the MTRL service runs (its base models are served only there). */
export const MTRL_REGIONS: readonly string[] = ['us-east-1', 'us-west-2'];

/**
 * Every region whose jobs may use an account-wide resource: the service's regions and the user's, each once, but the
 * ones the user took out of scope by name (an organization policy that denies a region would refuse every role and prefix).
 */
export function regionsToCheck(userRegions: readonly string[], excluded: readonly string[] = []): string[] {
  return [...new Set([...MTRL_REGIONS, ...userRegions.map((r) => r.trim()).filter(Boolean)])].filter((r) => !excluded.includes(r));
}

/** Whether text is a region's name as AWS spells it: `us-west-2`, `eu-central-1`, `us-gov-west-1`. */
export const isRegionName = (text: string) => /^[a-z]{2}(-[a-z]+)+-\d+$/.test(text);

/** Regions given by name, comma-separated or as a list: each trimmed, blanks dropped; a name that is no region is refused with a sentence. */
export function regionNames(given: string | readonly string[], from: string): string[] {
  const names = (typeof given === 'string' ? given.split(',') : given).map((r) => r.trim()).filter(Boolean);
  const bad = names.find((r) => !isRegionName(r));
  if (bad !== undefined) throw new Error(`${from} takes region names such as us-west-2, not "${bad}".`);
  return [...new Set(names)];
}

/** Why a region's jobs were not read when the user took it out of scope: a job there that uses a role or prefix is not seen. */
export const EXCLUDED_REGION_REASON =
  'taken out of scope by name (--exclude-regions or mtrl.cleanup.excludeRegions): a job there that uses a role or S3 prefix is not seen';
