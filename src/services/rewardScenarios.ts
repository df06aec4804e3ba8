import { readFile } from 'node:fs/promises';
import path from 'node:path';
import {
  checkExpectations,
  parseScenarioFile,
  rescoreReport,
  scenarioTranscript,
  type ExpectationResult,
  type HarnessError,
  type HarnessRunFailure,
  type ItemFailure,
  type RescoreReport,
  type RewardSpec,
  type ScenarioFile,
  type ScenarioFileProblem,
  type ScoredScenario,
} from '../core/reward';
import type { Transcript } from '../core/transcript/model';
import { resultsNotSeen } from '../core/transcript/resultsNotSeen';
import { runHarness } from './python/rewardHarness';

interface HarnessOptions {
  python: string;
  /** Absolute path of `transcript_reward.py`. */
  script: string;
  timeoutMs?: number;
  signal?: AbortSignal;
  onStderr?: (text: string) => void;
}

/** The scenario file's reward scored on each of its scenarios, with its expectations and the generic invariants. */
export interface ScenarioPreview {
  ok: true;
  /** Absolute path of the Python file that holds the reward. */
  rewardFile: string;
  convention: 'function' | 'class';
  target: string;
  /** 1-based line of the function or class. */
  line: number;
  /** 1-based line of the reward itself (the class's reward property or method; the function's def). */
  rewardLine: number;
  stubbed: string[];
  scored: ScoredScenario[];
  /** Scenarios the reward could not score (an unknown tool, an exception). */
  failures: Record<string, ItemFailure>;
  results: ExpectationResult[];
}

/** Why no preview: the file's own problems, or the reward code could not run. */
export type ScenarioPreviewFailure =
  | { ok: false; error: 'file'; message: string; problems: ScenarioFileProblem[] }
  | (Omit<HarnessError | HarnessRunFailure, 'ok'> & { ok: false; rewardFile?: string });

export interface ScenarioOutcome {
  result: ScenarioPreview | ScenarioPreviewFailure;
  stderr: string;
}

/** Reads and checks a `*.mtrl-reward.json` file; problems as one failure naming each. */
export async function loadScenarioFile(file: string, text?: string): Promise<{ file: ScenarioFile } | ScenarioPreviewFailure> {
  let content = text;
  if (content === undefined) {
    try {
      content = await readFile(file, 'utf8');
    } catch (error) {
      const message = `Cannot read ${path.basename(file)}: ${(error as Error).message}.`;
      return { ok: false, error: 'file', message, problems: [{ path: '', message }] };
    }
  }
  const parsed = parseScenarioFile(content);
  if (!parsed.file) {
    const first = parsed.problems[0];
    return {
      ok: false,
      error: 'file',
      message: `${path.basename(file)}: ${first.path ? `${first.path}: ` : ''}${first.message}`,
      problems: parsed.problems,
    };
  }
  return { file: parsed.file };
}

/** The reward's Python file, relative to the scenario file that names it. */
export function rewardFileOf(scenarioFile: string, spec: RewardSpec): string {
  return path.resolve(path.dirname(scenarioFile), spec.file);
}

/** Scores every scenario in one Python run and checks the file's expectations. */
export async function previewScenarios(scenarioFile: string, options: HarnessOptions & { text?: string }): Promise<ScenarioOutcome> {
  const loaded = await loadScenarioFile(scenarioFile, options.text);
  if ('ok' in loaded) return { result: loaded, stderr: '' };
  const { file } = loaded;
  const rewardFile = rewardFileOf(scenarioFile, file.reward);
  const { file: _relative, ...reward } = file.reward;
  const items = file.scenarios.map((s) => ({ name: s.name, task: s.task, transcript: scenarioTranscript(s) }));
  const { response, stderr } = await runHarness({ ...options, request: { file: rewardFile, reward, items } });
  if (!response.ok) return { result: { ...response, rewardFile }, stderr };
  const scored = file.scenarios.flatMap((s) =>
    response.rewards[s.name] === undefined ? [] : [{ ...s, reward: response.rewards[s.name] }],
  );
  return {
    result: {
      ok: true,
      rewardFile,
      convention: response.convention,
      target: response.target,
      line: response.line,
      rewardLine: response.rewardLine ?? response.line,
      stubbed: response.stubbed,
      scored,
      failures: response.failures ?? {},
      results: checkExpectations(scored, file.expect, file.invariants),
    },
    stderr,
  };
}

/** What-if: the reward as it is now over recorded transcripts, in one Python run, against their recorded rewards. */
export async function rescoreTranscripts(
  rewardFile: string,
  spec: RewardSpec,
  transcripts: readonly Transcript[],
  options: HarnessOptions,
): Promise<{ report: RescoreReport; stderr: string } | { failure: HarnessError | HarnessRunFailure; stderr: string }> {
  const { file: _relative, ...reward } = spec;
  // Names are positions: trajectory ids may repeat across sources, positions cannot.
  const items = transcripts.map((t, i) => ({ name: String(i), task: t.task, transcript: t }));
  const { response, stderr } = await runHarness({ ...options, request: { file: rewardFile, reward, items } });
  if (!response.ok) return { failure: response, stderr };
  const failures = response.failures ?? {};
  const rollouts = transcripts.map((t, i) => ({
    id: t.id,
    groupKey: t.groupKey,
    recorded: t.reward,
    rescored: response.rewards[String(i)],
    error: failures[String(i)]?.message,
    line: failures[String(i)]?.line,
  }));
  const notSeen = resultsNotSeen(transcripts);
  return { report: { ...rescoreReport(rollouts), ...(notSeen ? { resultsNotSeen: notSeen } : {}) }, stderr };
}
