/** The regions where the MTRL service runs (its base models are served only there). */
export const MTRL_REGIONS: readonly string[] = ['us-east-1', 'us-west-2'];

/** Every region whose jobs may use an account-wide resource: the service's regions and the user's, each once. */
export function regionsToCheck(userRegions: readonly string[]): string[] {
  return [...new Set([...MTRL_REGIONS, ...userRegions.map((r) => r.trim()).filter(Boolean)])];
}
