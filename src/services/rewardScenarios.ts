import { readFile, realpath, stat } from 'node:fs/promises';
import path from 'node:path';
import {
  checkExpectations,
  parseScenarioFile,
  rescoreReport,
  scenarioFileOf,
  scenarioTranscript,
  type ExpectationResult,
  type HarnessError,
  type HarnessRunFailure,
  type ItemFailure,
  type RescoreReport,
  type RewardSpec,
  type Scenario,
  type ScenarioFile,
  type ScenarioFileProblem,
  type ScoredScenario,
} from '../core/reward';
import { packRewardScenarios } from '../core/environments/registry';
import type { Transcript } from '../core/transcript/model';
import { resultsNotSeen } from '../core/transcript/resultsNotSeen';
import { KEPT_OUTPUT_BYTES, runHarness } from './python/rewardHarness';

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
  /** Every scenario of the file, scored or not, in its order. */
  scenarios: Scenario[];
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

/** A scenario file read whole at most: the largest hand-kept file is a few hundred kB. */
export const MAX_SCENARIO_FILE_BYTES = 16 * 2 ** 20;

/** `problem` is where and what, without the file's name: the CLI and the editor put it before (otherwise the whole message). */
const fileFailure = (message: string, problem = { path: '', message }): ScenarioPreviewFailure => ({
  ok: false,
  error: 'file',
  message,
  problems: [problem],
});

/** A scenario file's text, read whole up to its size limit; a failure naming why not. */
async function readScenarioText(file: string): Promise<string | ScenarioPreviewFailure> {
  try {
    const { size } = await stat(file);
    if (size > MAX_SCENARIO_FILE_BYTES)
      return fileFailure(
        `${path.basename(file)} is ${Math.round(size / 2 ** 20)} MB: a scenario file is read whole, up to ${MAX_SCENARIO_FILE_BYTES / 2 ** 20} MB.`,
      );
    return await readFile(file, 'utf8');
  } catch (error) {
    return fileFailure(`Cannot read ${path.basename(file)}: ${(error as Error).message}.`);
  }
}

/**
 * Reads and checks a `*.mtrl-reward.json` file (or the text, or the file already read, given for it) and the reward file
 * it names; problems as one failure naming each.
 */
export async function loadScenarioFile(
  file: string,
  given?: string | { file: ScenarioFile },
): Promise<{ file: ScenarioFile } | ScenarioPreviewFailure> {
  let parsed: { file?: ScenarioFile; problems: ScenarioFileProblem[] };
  if (typeof given === 'object') parsed = { file: given.file, problems: [] };
  else {
    const text = given ?? (await readScenarioText(file));
    if (typeof text !== 'string') return text;
    parsed = parseScenarioFile(text);
  }
  if (!parsed.file) {
    const first = parsed.problems[0];
    return {
      ok: false,
      error: 'file',
      message: `${path.basename(file)}: ${first.path ? `${first.path}: ` : ''}${first.message}`,
      problems: parsed.problems,
    };
  }
  const outside = await rewardFileProblem(file, parsed.file.reward);
  if (outside) return fileFailure(`${path.basename(file)}: reward.file: ${outside}`, { path: 'reward.file', message: outside });
  return { file: parsed.file };
}

/**
 * Why the reward file may not be imported, before any Python runs: it must be a regular file inside the scenario file's
 * folder (links followed), so a shared scenario file cannot point at /etc/hostname, /dev/zero or a FIFO.
 */
async function rewardFileProblem(scenarioFile: string, spec: RewardSpec): Promise<string | undefined> {
  const named = rewardFileOf(scenarioFile, spec);
  let real: string;
  let folder: string;
  try {
    [real, folder] = await Promise.all([realpath(named), realpath(path.dirname(path.resolve(scenarioFile)))]);
  } catch {
    return `"${spec.file}" does not exist beside the scenario file.`;
  }
  const relative = path.relative(folder, real);
  if (!relative || relative.startsWith('..') || path.isAbsolute(relative))
    return `"${spec.file}" is outside the scenario file's folder; keep the reward in that folder or below it.`;
  if (!(await stat(real)).isFile()) return `"${spec.file}" is not a regular file; name the reward's Python file.`;
  return undefined;
}

/** The reward's Python file, relative to the scenario file that names it. */
export function rewardFileOf(scenarioFile: string, spec: RewardSpec): string {
  return path.resolve(path.dirname(scenarioFile), spec.file);
}

/** The scenarios a pack offers for a Python reward: read once, as a file saved beside it would be (`text`, for saving it). */
export interface OfferedScenarios {
  /** `reward.py` → `reward.mtrl-reward.json`. */
  path: string;
  file: ScenarioFile;
  text: string;
}

/** The scenario file an environment pack offers for the reward in a Python file; undefined when no pack recognizes it. */
export function packScenarioFile(pythonFile: string, source: string): OfferedScenarios | undefined {
  const document = packRewardScenarios(source, path.basename(pythonFile));
  const file = document && scenarioFileOf(document).file;
  if (!document || !file) return undefined;
  return { path: `${pythonFile.replace(/\.py$/, '')}.mtrl-reward.json`, file, text: `${JSON.stringify(document, null, 2)}\n` };
}

/** Scores every scenario in one Python run and checks the file's expectations. */
export async function previewScenarios(
  scenarioFile: string,
  options: HarnessOptions & { text?: string; file?: ScenarioFile },
): Promise<ScenarioOutcome> {
  const loaded = await loadScenarioFile(scenarioFile, options.file ? { file: options.file } : options.text);
  if ('ok' in loaded) return { result: loaded, stderr: '' };
  const { file } = loaded;
  const rewardFile = rewardFileOf(scenarioFile, file.reward);
  const { file: _relative, ...reward } = file.reward;
  const items = file.scenarios.map((s) => ({ name: s.name, task: s.task, transcript: scenarioTranscript(s) }));
  const { response, stderr } = await runHarness({ ...options, request: { file: rewardFile, reward, items } });
  if (!response.ok) return { result: { ...response, rewardFile }, stderr };
  const scored = file.scenarios.flatMap((s): ScoredScenario[] => {
    const components = response.components?.[s.name];
    return response.rewards[s.name] === undefined
      ? []
      : [{ ...s, reward: response.rewards[s.name], ...(components ? { components } : {}) }];
  });
  return {
    result: {
      ok: true,
      rewardFile,
      convention: response.convention,
      target: response.target,
      line: response.line,
      rewardLine: response.rewardLine ?? response.line,
      stubbed: response.stubbed,
      scenarios: file.scenarios,
      scored,
      failures: response.failures ?? {},
      results: checkExpectations(
        scored,
        file.expect,
        file.invariants,
        file.scenarios.filter((s) => response.rewards[s.name] === undefined).map((s) => s.name),
      ),
    },
    stderr,
  };
}

/**
 * Transcripts re-scored by one Python run: the run's request, its memory and its one result line (kept up to
 * KEPT_OUTPUT_BYTES) stay the same size at any count. 100,000 in one run gave a result line past that cap: no result.
 */
export const RESCORE_BATCH = 2000;
/** Python runs at once: a Python start is mostly waiting (about 1 s of wall time on a busy machine, 0.1 s of CPU). */
const RESCORE_RUNS_AT_ONCE = 2;

/** What-if: the reward as it is now over recorded transcripts, one Python run a batch, against their recorded rewards. */
export async function rescoreTranscripts(
  rewardFile: string,
  spec: RewardSpec,
  transcripts: readonly Transcript[],
  options: HarnessOptions,
  batch = RESCORE_BATCH,
): Promise<{ report: RescoreReport; stderr: string } | { failure: HarnessError | HarnessRunFailure; stderr: string }> {
  const { file: _relative, ...reward } = spec;
  const rewards: Record<string, number> = {};
  const components: Record<string, Record<string, number>> = {};
  const failures: Record<string, ItemFailure> = {};
  let stderr = '';
  let failure: HarnessError | HarnessRunFailure | undefined;
  let next = 0;
  const runBatches = async () => {
    // A failed run (the reward does not load, a timeout, a cancel) starts no further run.
    for (let start = next; start < transcripts.length && !failure; start = next) {
      next += batch;
      // Names are positions: trajectory ids may repeat across sources, positions cannot.
      const items = transcripts.slice(start, start + batch).map((t, i) => ({ name: String(start + i), task: t.task, transcript: t }));
      const run = await runHarness({ ...options, request: { file: rewardFile, reward, items } });
      stderr = (stderr + run.stderr).slice(0, KEPT_OUTPUT_BYTES);
      if (!run.response.ok) failure ??= run.response;
      else {
        Object.assign(rewards, run.response.rewards);
        Object.assign(components, run.response.components);
        Object.assign(failures, run.response.failures);
      }
    }
  };
  await Promise.all(Array.from({ length: RESCORE_RUNS_AT_ONCE }, runBatches));
  if (failure) return { failure, stderr };
  const rollouts = transcripts.map((t, i) => ({
    id: t.id,
    groupKey: t.groupKey,
    recorded: t.reward,
    rescored: rewards[String(i)],
    ...(components[String(i)] ? { components: components[String(i)] } : {}),
    ...(t.metrics ? { recordedComponents: t.metrics } : {}),
    error: failures[String(i)]?.message,
    line: failures[String(i)]?.line,
  }));
  const notSeen = resultsNotSeen(transcripts);
  return { report: { ...rescoreReport(rollouts), ...(notSeen ? { resultsNotSeen: notSeen } : {}) }, stderr };
}
