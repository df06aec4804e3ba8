import type { Transcript } from '../transcript/model';
import type { EnvironmentPack, PackAgentAdvice, PackDatasetChecks, PackScanner, ScenarioDocument } from './types';
import { wordlePack } from './wordle/pack';

/** Every environment pack, tried in order: the first that recognizes a transcript enriches it. A new pack is one line here. */
export const PACKS: readonly EnvironmentPack[] = [wordlePack];

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

/** The scenario file the first pack that recognizes the reward in `source` offers for it (Python file `file`), else undefined. */
export function packRewardScenarios(source: string, file: string): ScenarioDocument | undefined {
  for (const pack of PACKS) {
    const document = pack.rewardScenarios?.(source, file);
    if (document) return document;
  }
  return undefined;
}

/** The scanners of the pack that enriched a transcript (none for a generic one). */
export function packScanners(transcript: Transcript): readonly PackScanner[] {
  return packById(transcript.env?.pack)?.scanners ?? [];
}

/** Every pack's scanners, for the rules `mtrl scan --help` lists. */
export function allPackScanners(): PackScanner[] {
  return PACKS.flatMap((p) => p.scanners ?? []);
}
