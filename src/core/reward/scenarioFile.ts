import type { Task, ToolCall, Transcript, Turn } from '../transcript/model';
import { isFields, JsonTooDeep, parseOutsideJson } from '../text/json';
import { jsonOrText } from '../transcript/record';

/** How a `*.mtrl-reward.json` file says to score a transcript. */
export type RewardSpec = FunctionReward | ClassReward;

/** `reward(task, transcript) -> float | {"reward": x}` over the normalized transcript. */
export interface FunctionReward {
  form: 'function';
  /** The Python file, relative to the scenario file. */
  file: string;
  function: string;
}

/** How one tool's JSON arguments reach the environment's method. */
export type ArgumentPassing = 'keywords' | 'object' | string[];

/** An environment class replayed step by step: construct from the task, send each tool call to a method, read the reward. */
export interface ClassReward {
  form: 'class';
  file: string;
  class: string;
  /** Constructor keyword arguments: parameter name → task field. Absent: the task row as the one argument. */
  init?: Record<string, string>;
  /**
   * Tool name → the method it goes to, how its arguments are passed (default: as keywords), and the method a call the
   * model wrote as text goes to (the agent's raw-text route; absent: the same method).
   */
  tools: Record<string, { method: string; arguments: ArgumentPassing; text?: string }>;
  /** The attribute (or method, called without arguments) that holds the reward at the end. */
  score: string;
}

/** A named transcript to score: written by hand, or saved from a real rollout on the board. */
export interface Scenario {
  name: string;
  task: Task;
  turns: Turn[];
  /** Declared by the author: did this transcript finish the task? Feeds the generic invariants. */
  finished?: boolean;
  /** Declared by the author or a pack: how good its outcome is (higher is better), when the reward returns no `outcome`. */
  outcome?: number;
}

export interface ScenarioFile {
  reward: RewardSpec;
  scenarios: Scenario[];
  /** `ideal > shortcut`, `gave-up < 0`, `ideal == 1.0`. */
  expect: string[];
  /** Generic invariants to check; default all. */
  invariants: GenericInvariantName[];
}

export const GENERIC_INVARIANTS = [
  'finished-beats-unfinished',
  'fewer-turns-no-worse',
  'nothing-scores-lowest',
  'outcome-decides-order',
  'shaping-is-bounded',
] as const;
export type GenericInvariantName = (typeof GENERIC_INVARIANTS)[number];

/** A reason the file cannot be used, with the JSON path it is about (`scenarios.ideal.tool_calls`). */
export interface ScenarioFileProblem {
  message: string;
  path: string;
}

type Parsed = { file: ScenarioFile; problems: [] } | { file?: undefined; problems: ScenarioFileProblem[] };

const NAME = /^[A-Za-z0-9_@.-]+$/;

/** A tool call as a scenario writes it: `{"name", "arguments"}` or the short `{"tool_name": {arguments}}`. */
function toolCallOf(value: unknown, path: string, problems: ScenarioFileProblem[]): ToolCall | undefined {
  if (!isFields(value)) {
    problems.push({ path, message: 'A tool call is an object: {"name": "tool", "arguments": {…}} or {"tool": {…}}.' });
    return undefined;
  }
  if (value.as_text !== undefined && typeof value.as_text !== 'boolean')
    problems.push({ path: `${path}.as_text`, message: '"as_text" is true or false.' });
  // `as_text`: the model wrote this call as text and the agent recovered it from there.
  const asText = value.as_text === true ? { asText: true as const } : {};
  if (typeof value.name === 'string')
    return {
      name: value.name,
      arguments: value.arguments ?? {},
      ...(value.result !== undefined ? { result: jsonOrText(value.result) } : {}),
      ...asText,
    };
  const keys = Object.keys(value).filter((k) => k !== 'as_text');
  if (keys.length === 1) return { name: keys[0], arguments: value[keys[0]] ?? {}, ...asText };
  problems.push({ path, message: 'A tool call names its tool: {"name": "tool", "arguments": {…}} or {"tool": {…}}.' });
  return undefined;
}

function taskOf(value: unknown, fallback: Task | undefined, path: string, problems: ScenarioFileProblem[]): Task | undefined {
  if (value === undefined) return fallback;
  if (typeof value === 'string') return { prompt: value };
  if (isFields(value)) return { prompt: typeof value.prompt === 'string' ? value.prompt : '', row: value };
  problems.push({ path, message: 'A task is the dataset row as an object (with its "prompt"), or the prompt text.' });
  return undefined;
}

function scenarioOf(name: string, value: unknown, task: Task | undefined, problems: ScenarioFileProblem[]): Scenario | undefined {
  const path = `scenarios.${name}`;
  if (!NAME.test(name)) problems.push({ path, message: `Scenario names are letters, digits and - _ @ . (got '${name}').` });
  const raw = Array.isArray(value) ? { tool_calls: value } : value;
  if (!isFields(raw)) {
    problems.push({ path, message: 'A scenario is a list of tool calls, or an object with "tool_calls" or "turns".' });
    return undefined;
  }
  let turns: Turn[] = [];
  if (Array.isArray(raw.turns)) {
    turns = raw.turns.map((t, i) => {
      const turn = isFields(t) ? t : {};
      const calls = Array.isArray(turn.tool_calls ?? turn.toolCalls) ? ((turn.tool_calls ?? turn.toolCalls) as unknown[]) : [];
      return {
        thinking: typeof turn.thinking === 'string' ? turn.thinking : undefined,
        text: typeof turn.text === 'string' ? turn.text : undefined,
        toolCalls: calls.flatMap((c, j) => toolCallOf(c, `${path}.turns.${i}.tool_calls.${j}`, problems) ?? []),
      };
    });
  } else if (Array.isArray(raw.tool_calls)) {
    // One tool call a turn: what a hand-written scenario for the class form means.
    turns = raw.tool_calls.flatMap((c, j) => {
      const call = toolCallOf(c, `${path}.tool_calls.${j}`, problems);
      return call ? [{ toolCalls: [call] }] : [];
    });
  } else {
    problems.push({ path, message: 'A scenario has "tool_calls" (a list) or "turns" (a list).' });
  }
  const scenarioTask = taskOf(raw.task, task, `${path}.task`, problems);
  if (!scenarioTask) {
    problems.push({ path, message: 'No task for this scenario: give "task" at the top of the file or in the scenario.' });
    return undefined;
  }
  if (raw.finished !== undefined && typeof raw.finished !== 'boolean')
    problems.push({ path: `${path}.finished`, message: '"finished" is true or false.' });
  if (raw.outcome !== undefined && !(typeof raw.outcome === 'number' && Number.isFinite(raw.outcome)))
    problems.push({ path: `${path}.outcome`, message: '"outcome" is a number: how good the outcome is, higher is better.' });
  const scenario: Scenario = { name, task: scenarioTask, turns, finished: typeof raw.finished === 'boolean' ? raw.finished : undefined };
  if (typeof raw.outcome === 'number' && Number.isFinite(raw.outcome)) scenario.outcome = raw.outcome;
  return scenario;
}

function argumentPassing(value: unknown, path: string, problems: ScenarioFileProblem[]): ArgumentPassing {
  if (value === undefined || value === 'keywords') return 'keywords';
  if (value === 'object') return 'object';
  if (Array.isArray(value) && value.every((v) => typeof v === 'string')) return value as string[];
  problems.push({ path, message: '"arguments" is "keywords", "object", or a list of argument names passed in order.' });
  return 'keywords';
}

function rewardOf(value: unknown, problems: ScenarioFileProblem[]): RewardSpec | undefined {
  if (!isFields(value) || typeof value.file !== 'string' || !value.file) {
    problems.push({ path: 'reward', message: '"reward" names the Python "file" and either a "function" or a "class".' });
    return undefined;
  }
  if (typeof value.function === 'string') return { form: 'function', file: value.file, function: value.function };
  if (typeof value.class !== 'string') {
    problems.push({
      path: 'reward',
      message: '"reward" needs "function" (reward(task, transcript)) or "class" (an environment to replay).',
    });
    return undefined;
  }
  const tools: ClassReward['tools'] = {};
  if (!isFields(value.tools) || !Object.keys(value.tools).length)
    problems.push({ path: 'reward.tools', message: 'The class form maps each tool to a method: "tools": {"tool": {"method": "apply"}}.' });
  else
    for (const [tool, spec] of Object.entries(value.tools)) {
      const method = typeof spec === 'string' ? spec : isFields(spec) ? spec.method : undefined;
      if (typeof method !== 'string' || !method) {
        problems.push({ path: `reward.tools.${tool}`, message: `Tool '${tool}' needs the "method" it goes to.` });
        continue;
      }
      tools[tool] = {
        method,
        arguments: argumentPassing(isFields(spec) ? spec.arguments : undefined, `reward.tools.${tool}.arguments`, problems),
      };
      if (isFields(spec) && typeof spec.text === 'string' && spec.text) tools[tool].text = spec.text;
    }
  let init: Record<string, string> | undefined;
  if (value.init !== undefined) {
    if (isFields(value.init) && Object.values(value.init).every((v) => typeof v === 'string')) init = value.init as Record<string, string>;
    else problems.push({ path: 'reward.init', message: '"init" maps constructor parameters to task fields: {"ticket": "prompt"}.' });
  }
  const score = typeof value.score === 'string' && value.score ? value.score : 'reward';
  return { form: 'class', file: value.file, class: value.class, init, tools, score };
}

/** Scenarios one file may name: hand-written or saved from rollouts one at a time, never near this many. */
export const MAX_SCENARIOS = 10_000;

/** Reads a scenario file's JSON text; every problem is reported, none thrown. */
export function parseScenarioFile(text: string): Parsed {
  let value: unknown;
  try {
    value = parseOutsideJson(text);
  } catch (error) {
    const message = error instanceof JsonTooDeep ? `${(error as Error).message}.` : `Not valid JSON: ${(error as Error).message}`;
    return { problems: [{ path: '', message }] };
  }
  return scenarioFileOf(value);
}

/** Reads a scenario file's JSON value (parsed text, or a pack's document as it is); every problem is reported, none thrown. */
export function scenarioFileOf(value: unknown): Parsed {
  if (!isFields(value))
    return { problems: [{ path: '', message: 'A reward scenario file is a JSON object with "reward" and "scenarios".' }] };
  const problems: ScenarioFileProblem[] = [];
  for (const key of Object.keys(value))
    if (!['reward', 'task', 'scenarios', 'expect', 'invariants'].includes(key))
      problems.push({ path: key, message: `Unknown key "${key}": a scenario file has reward, task, scenarios, expect and invariants.` });
  const reward = rewardOf(value.reward, problems);
  const task = taskOf(value.task, undefined, 'task', problems);
  const scenarios: Scenario[] = [];
  const count = isFields(value.scenarios) ? Object.keys(value.scenarios).length : 0;
  if (!count) problems.push({ path: 'scenarios', message: '"scenarios" names at least one transcript: {"ideal": [{"tool": {…}}, …]}.' });
  else if (count > MAX_SCENARIOS)
    problems.push({
      path: 'scenarios',
      message: `${count.toLocaleString('en')} scenarios: a file holds at most ${MAX_SCENARIOS.toLocaleString('en')}. Keep the telling ones, or split them into several files.`,
    });
  else
    for (const [name, s] of Object.entries(value.scenarios as Record<string, unknown>))
      scenarios.push(...[scenarioOf(name, s, task, problems)].filter((x) => !!x));
  const expect = Array.isArray(value.expect) ? value.expect.filter((e): e is string => typeof e === 'string') : [];
  if (value.expect !== undefined && (!Array.isArray(value.expect) || expect.length !== value.expect.length))
    problems.push({ path: 'expect', message: '"expect" is a list of comparisons such as "ideal > shortcut" or "gave-up < 0".' });
  let invariants: GenericInvariantName[] = [...GENERIC_INVARIANTS];
  if (value.invariants !== undefined) {
    const listed = Array.isArray(value.invariants) ? value.invariants : [];
    const unknown = listed.filter((n) => !(GENERIC_INVARIANTS as readonly unknown[]).includes(n));
    if (!Array.isArray(value.invariants) || unknown.length)
      problems.push({ path: 'invariants', message: `"invariants" lists some of ${GENERIC_INVARIANTS.join(', ')}.` });
    invariants = listed.filter((n): n is GenericInvariantName => (GENERIC_INVARIANTS as readonly unknown[]).includes(n));
  }
  if (problems.length || !reward) return { problems: problems.length ? problems : [{ path: 'reward', message: 'No reward.' }] };
  return { file: { reward, scenarios, expect, invariants }, problems: [] };
}

/** A scenario as a transcript the function form receives (the same shape a real rollout is normalized to). */
export function scenarioTranscript(scenario: Scenario): Transcript {
  return { id: scenario.name, task: scenario.task, groupKey: scenario.name, status: 'completed', turns: scenario.turns, source: 'record' };
}

/** The tool calls of a transcript in order: what the class form replays. */
export function toolCallsOf(transcript: Pick<Transcript, 'turns'>): ToolCall[] {
  return transcript.turns.flatMap((t) => t.toolCalls);
}

/** A real rollout as a scenario: its task and turns (tool calls with their arguments), kept for the reward to score again. */
export function scenarioFromTranscript(transcript: Transcript): Record<string, unknown> {
  const toolOnly = transcript.turns.every((t) => !t.text?.trim() && t.toolCalls.length === 1);
  const call = (c: ToolCall) => {
    let args = c.arguments;
    if (typeof args === 'string') {
      try {
        args = parseOutsideJson(args);
      } catch {
        // Not JSON: the scenario keeps the text the model wrote.
      }
    }
    return { name: c.name, arguments: args, ...(c.asText ? { as_text: true } : {}) };
  };
  const scenario: Record<string, unknown> = { task: transcript.task.row ?? transcript.task.prompt };
  if (toolOnly) scenario.tool_calls = transcript.turns.map((t) => call(t.toolCalls[0]));
  else
    scenario.turns = transcript.turns.map((t) => ({
      ...(t.text ? { text: t.text } : {}),
      tool_calls: t.toolCalls.map(call),
    }));
  if (transcript.solved !== undefined) scenario.finished = transcript.solved;
  return scenario;
}

/** The scenario file's text with one more scenario; refused when the name is taken or the text is not a scenario file's JSON. */
export function withScenario(text: string, name: string, scenario: Record<string, unknown>): { text: string } | { problem: string } {
  if (!NAME.test(name)) return { problem: `Scenario names are letters, digits and - _ @ . (got '${name}').` };
  let value: unknown;
  try {
    value = text.trim() ? parseOutsideJson(text) : {};
  } catch {
    return { problem: 'The scenario file is not valid JSON; fix it first so nothing in it is lost.' };
  }
  if (!isFields(value)) return { problem: 'The scenario file is not a JSON object.' };
  const scenarios = isFields(value.scenarios) ? value.scenarios : {};
  if (name in scenarios) return { problem: `A scenario named '${name}' exists already: pick another name.` };
  const indent = /\n( +)"/.exec(text)?.[1].length ?? 2;
  return { text: `${JSON.stringify({ ...value, scenarios: { ...scenarios, [name]: scenario } }, null, indent)}\n` };
}
