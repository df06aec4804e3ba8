import type { EnvironmentFacts, Transcript } from '../transcript/model';

/**
 * What one environment (Wordle, a support game, SQL, …) knows beyond the generic transcript.
 * A new environment is one folder under core/environments and one line in the registry.
 */
export interface EnvironmentPack {
  /** Stable id: `wordle`; the board picks its renderer by it. */
  id: string;
  /** True when this transcript was played in this environment (e.g. Wordle: a `guess_word` tool with feedback results). */
  recognizes(transcript: Transcript): boolean;
  /** What the pack adds to a transcript it recognizes. */
  enrich(transcript: Transcript): EnvironmentFacts;
}
