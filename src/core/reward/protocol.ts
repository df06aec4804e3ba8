import { followsRewardRule, quotedValue, REWARD_RULE } from '../numberRules';
import { outsideText } from '../text/display';
import type { Task, Transcript } from '../transcript/model';
import type { RewardSpec } from './scenarioFile';

/** Why the user's code could not be scored. `syntax`/`import` carry the user's line. */
type HarnessErrorKind = 'syntax' | 'import' | 'not-found' | 'runtime';

/** What the reward scorer (transcript_reward.py) reads from stdin: a reward spec and transcripts to score, each on its own. */
export interface TranscriptHarnessRequest {
  file: string;
  reward: Omit<RewardSpec, 'file'>;
  items: { name: string; task: Task; transcript: Transcript }[];
}

/** A transcript the reward could not score, with the line in the user's file when the error points there. */
export interface ItemFailure {
  message: string;
  line?: number;
}

interface HarnessSuccess {
  ok: true;
  convention: 'class' | 'function';
  /** The class or function that was scored. */
  target: string;
  /** 1-based line of the class or function. */
  line: number;
  /** Modules that were not installed and were replaced by stubs. */
  stubbed: string[];
  rewards: Record<string, number>;
  /** Item name → the named parts the reward returned beside its total (outcome, shaping, its metrics), when it returned any. */
  components?: Record<string, Record<string, number>>;
  /** 1-based line of the reward's property or method (class form), where broken expectations are reported. */
  rewardLine?: number;
  /** The items that could not be scored, by name. */
  failures?: Record<string, ItemFailure>;
}

export interface HarnessError {
  ok: false;
  error: HarnessErrorKind;
  message: string;
  /** 1-based line and column in the user's file, when the error points there. */
  line?: number;
  column?: number;
}

export type HarnessResponse = HarnessSuccess | HarnessError;

/** The harness prints its one result on its private copy of stdout, after this marker, so user prints cannot forge it. */
export const RESULT_MARKER = '@@mtrl-reward-result@@ ';

/** Characters of an exception message from your Python shown at most, on one line (a message cannot forge a line of ours). */
export const PYTHON_MESSAGE_MAX = 2000;

const KINDS: readonly string[] = ['syntax', 'import', 'not-found', 'runtime'];

function itemFailures(raw: Record<string, unknown>): Record<string, ItemFailure> {
  const failures: Record<string, ItemFailure> = {};
  for (const [name, f] of Object.entries(raw)) {
    const failure = (typeof f === 'object' && f !== null ? f : {}) as Record<string, unknown>;
    failures[name] = {
      message:
        typeof failure.message === 'string' ? outsideText(failure.message, PYTHON_MESSAGE_MAX) : 'the reward failed on this transcript',
    };
    if (typeof failure.line === 'number') failures[name].line = failure.line;
  }
  return failures;
}

/** Each item's components that are finite numbers; items without one are left out. */
function componentsOf(raw: unknown): Record<string, Record<string, number>> {
  const found: Record<string, Record<string, number>> = {};
  for (const [item, parts] of Object.entries(typeof raw === 'object' && raw !== null ? raw : {})) {
    const numbers = Object.entries(typeof parts === 'object' && parts !== null ? (parts as object) : {}).filter(
      (e): e is [string, number] => typeof e[1] === 'number' && Number.isFinite(e[1]),
    );
    if (numbers.length) found[item] = Object.fromEntries(numbers);
  }
  return found;
}

/** The harness's answer from its stdout text, or undefined when there is none or it is malformed. */
export function parseHarnessOutput(stdout: string): HarnessResponse | undefined {
  const line = stdout.split(/\r?\n/).find((l) => l.startsWith(RESULT_MARKER));
  if (!line) return undefined;
  let value: unknown;
  try {
    value = JSON.parse(line.slice(RESULT_MARKER.length));
  } catch {
    return undefined;
  }
  if (typeof value !== 'object' || value === null) return undefined;
  const v = value as Record<string, unknown>;
  if (v.ok === true && typeof v.rewards === 'object' && v.rewards !== null && typeof v.target === 'string') {
    const rewards = v.rewards as Record<string, unknown>;
    if (!Object.values(rewards).every((r) => typeof r === 'number')) return undefined;
    const broken = Object.entries(rewards).find(([, r]) => !followsRewardRule(r));
    if (broken)
      return {
        ok: false,
        error: 'runtime',
        message: `${broken[0]} scored ${quotedValue(broken[1])}, which breaks the reward rule: ${REWARD_RULE}.`,
      };
    const success: HarnessSuccess = {
      ok: true,
      convention: v.convention === 'function' ? 'function' : 'class',
      target: v.target,
      line: typeof v.line === 'number' ? v.line : 1,
      stubbed: Array.isArray(v.stubbed) ? v.stubbed.filter((s): s is string => typeof s === 'string') : [],
      rewards: rewards as Record<string, number>,
    };
    if (typeof v.rewardLine === 'number') success.rewardLine = v.rewardLine;
    const components = componentsOf(v.components);
    if (Object.keys(components).length) success.components = components;
    if (typeof v.failures === 'object' && v.failures !== null) success.failures = itemFailures(v.failures as Record<string, unknown>);
    return success;
  }
  if (v.ok === false && typeof v.error === 'string' && KINDS.includes(v.error) && typeof v.message === 'string') {
    return {
      ok: false,
      error: v.error as HarnessErrorKind,
      message: outsideText(v.message, PYTHON_MESSAGE_MAX),
      line: typeof v.line === 'number' ? v.line : undefined,
      column: typeof v.column === 'number' ? v.column : undefined,
    };
  }
  return undefined;
}

export const DEFAULT_TIMEOUT_SECONDS = 10;
/** Longest run allowed: one hour (a timer past 2^31 ms would fire at once). */
export const MAX_TIMEOUT_SECONDS = 3600;

/** Why no harness answer arrived: the run itself failed, before or around the user's code. */
export interface HarnessRunFailure {
  ok: false;
  error: 'timeout' | 'cancelled' | 'spawn' | 'crashed';
  message: string;
}
