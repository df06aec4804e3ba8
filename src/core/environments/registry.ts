import type { Transcript } from '../transcript/model';
import type { PackRewardPreview } from '../reward/packPreview';
import type { EnvironmentPack, PackAgentAdvice, PackDatasetChecks } from './types';
import { wordlePack } from './wordle/pack';
import { wordleRewardPreview } from './wordle/rewardPreview';

/** Every environment pack, tried in order: the first that recognizes a transcript enriches it. A new pack is one line here. */
export const PACKS: readonly EnvironmentPack[] = [wordlePack];

/** Packs that script games for the Python-file reward preview; apart from PACKS until that preview becomes scenarios (issue #38). */
const REWARD_PREVIEWS: readonly PackRewardPreview[] = [wordleRewardPreview];

/** Adds what the first recognizing pack knows (its facts land in `transcript.env`); a transcript no pack knows stays generic. */
export function enrichTranscript(transcript: Transcript): Transcript {
  for (const pack of PACKS)
    if (pack.recognizes(transcript)) {
      transcript.env = pack.enrich(transcript);
      break;
    }
  return transcript;
}

export function packById(id: string | undefined): EnvironmentPack | undefined {
  return PACKS.find((p) => p.id === id);
}

/** Every pack's dataset checks, in registry order (the dataset check picks by convention, or by the rows' look). */
export function datasetChecks(): PackDatasetChecks[] {
  return PACKS.flatMap((p) => (p.datasetChecks ? [p.datasetChecks] : []));
}

/** The advice of the first pack whose environment an agent plays, judged by its source. */
export function agentAdviceForSource(source: string): PackAgentAdvice | undefined {
  return PACKS.find((p) => p.agentAdvice?.inSource(source))?.agentAdvice;
}

/** The advice of the first pack whose environment an agent plays, judged by a smoke test's runtime log lines. */
export function agentAdviceForLogs(lines: readonly string[]): PackAgentAdvice | undefined {
  return PACKS.find((p) => p.agentAdvice?.inLogs(lines))?.agentAdvice;
}

/** The reward preview's games: the first pack that scripts them (other tasks preview their reward on scenario files). */
export function rewardPreviewGames(): PackRewardPreview | undefined {
  return REWARD_PREVIEWS[0];
}
