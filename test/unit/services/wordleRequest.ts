import path from 'node:path';
import { parseScenarioFile, scenarioTranscript, type TranscriptHarnessRequest } from '../../../src/core/reward';
import { wordleRewardScenarios } from '../../../src/core/environments/wordle/rewardScenarios';

const WORDLE_CLASS = 'class WordleGame:\n    def guess(self, w): ...\n    def final_reward(self): ...\n';

/** The scorer's request for a Wordle reward file: the WordleGame class replayed on the pack's scenarios. */
export function wordleRequest(file: string): TranscriptHarnessRequest {
  const { reward, scenarios } = parseScenarioFile(JSON.stringify(wordleRewardScenarios(WORDLE_CLASS, path.basename(file)))).file!;
  const { file: _relative, ...spec } = reward;
  return { file, reward: spec, items: scenarios.map((s) => ({ name: s.name, task: s.task, transcript: scenarioTranscript(s) })) };
}
