import { randomUUID } from 'node:crypto';
import { markGuess, MAX_GUESSES, parseFeedback } from '../core/environments/wordle';
import { TRAIN_ANSWERS, VALIDATION_ANSWERS } from './answers';
import { hashSeed, Random } from './random';
import { playRefund } from './refund/agent';
import { REFUND_TOOLS } from './refund/desk';
import { pythonJson } from './pythonJson';
import { WORDLE_TOOL } from './wordleEpisode';

// The scripted policy as an OpenAI-compatible model (`POST /v1/chat/completions`), so an agent loop can run against
// the emulator as against the Job Runtime or any OpenAI-compatible server: each call answers the conversation's next
// model turn, a tool call or a final answer, for Wordle (`guess_word`) or the refund desk.

interface ChatMessage {
  role?: string;
  content?: unknown;
  tool_calls?: unknown[];
}

interface ChatRequest {
  model?: unknown;
  messages?: unknown;
  tools?: { function?: { name?: unknown; parameters?: { properties?: unknown; required?: unknown } } }[];
}

/** The argument the agent's guessing tool takes (`guess`; the public sample's `guess_word(word)` takes `word`), as a model reads it from the schema. */
function guessArgument(request: ChatRequest): string {
  const schema = (request.tools ?? []).find((t) => t?.function?.name === WORDLE_TOOL)?.function?.parameters;
  const required = Array.isArray(schema?.required) ? schema.required.map(String) : [];
  const properties = schema?.properties && typeof schema.properties === 'object' ? Object.keys(schema.properties) : [];
  return required[0] ?? properties[0] ?? 'guess';
}

/** The skill of a model name: `scripted` (0.5), `scripted-0.9`, `scripted:0.2`; any other name plays at 0.5. */
export function skillOfModel(model: unknown): number {
  const m = /^scripted(?:[-:@](\d*\.?\d+))?$/.exec(String(model ?? ''));
  const skill = m?.[1] === undefined ? 0.5 : Number(m[1]);
  return Math.min(1, Math.max(0, skill));
}

const textOf = (content: unknown): string =>
  typeof content === 'string'
    ? content
    : Array.isArray(content)
      ? content.map((part) => (typeof part === 'string' ? part : String((part as { text?: unknown })?.text ?? ''))).join('')
      : '';

/** The next model turn: its reasoning, and a tool call or a final answer. */
interface NextTurn {
  thinking: string;
  call?: { name: string; arguments: string };
  answer?: string;
}

function nextRefundTurn(first: string, calls: number, skill: number): NextTurn {
  const row = first.split('\n\nInitial environment:')[0];
  // The same conversation and skill replay the same episode: each call answers its next turn.
  const episode = playRefund(row, skill, new Random(hashSeed(`chat#${skill}#${first}`)));
  const turn = episode.turns[Math.min(calls, episode.turns.length - 1)];
  const call = turn.calls[0];
  return call
    ? { thinking: turn.thinking, call: { name: call.name, arguments: call.arguments } }
    : { thinking: turn.thinking, answer: 'I have worked your refund request and closed the ticket.' };
}

const POOL = [...TRAIN_ANSWERS, ...VALIDATION_ANSWERS];
const MAX_OPENINGS = 10_000;

/** Which sample of its opening a conversation is: counted at its first call, then carried in its tool call ids. */
function sampleOf(first: string, messages: readonly ChatMessage[], openings: Map<string, number> | undefined): number {
  const assistant = messages.find((m) => m?.role === 'assistant');
  if (assistant) return Number(/^call_s(\d+)_/.exec(String((assistant.tool_calls?.[0] as { id?: unknown })?.id ?? ''))?.[1] ?? 0);
  const n = openings?.get(first) ?? 0;
  if (openings && openings.size >= MAX_OPENINGS) openings.clear();
  openings?.set(first, n + 1);
  return n;
}

function nextWordleTurn(first: string, messages: readonly ChatMessage[], skill: number, argument: string, sample: number): NextTurn {
  const feedback = messages.filter((m) => m.role === 'tool').map((m) => textOf(m.content));
  const scored = parseFeedback(feedback.join('\n')).filter((t) => t.valid && t.marks);
  if (scored.some((t) => t.marks === 'GGGGG')) return { thinking: 'All green: solved.', answer: 'Solved.' };
  if (scored.length >= MAX_GUESSES || feedback.some((f) => f.includes('Out of guesses')))
    return { thinking: 'No guesses left.', answer: 'Out of guesses.' };
  // The first message seeds the game too: an agent that frames each rollout differently (a session id) samples a different game, as at temperature 1.
  // The k-th conversation with the same opening plays the k-th game, as sampling at temperature 1 would.
  const opening = sample ? `${first}#${sample}` : first;
  const rng = new Random(hashSeed(`chat#${skill}#${opening}#${feedback.join('\n')}`));
  const guessed = new Set(scored.map((t) => t.guess));
  const candidates = POOL.filter((w) => !guessed.has(w) && scored.every((t) => markGuess(t.guess, w) === t.marks));
  const skilled = candidates.length > 0 && rng.chance(skill);
  const guess = skilled ? rng.pick(candidates) : rng.pick(POOL);
  const thinking = skilled
    ? `${candidates.length} word${candidates.length === 1 ? '' : 's'} fit the feedback so far. Guessing ${guess}.`
    : `Trying ${guess}.`;
  return { thinking, call: { name: WORDLE_TOOL, arguments: pythonJson({ [argument]: guess }) } };
}

/** The refusal's words, which the local check's report recognises (`doesNotPlay`): the script plays only its own environments. */
const SCRIPT_REFUSAL = (wordleTool: string, refundTools: readonly string[]) =>
  `The emulator's scripted policy does not play this conversation: it plays Wordle (tool ${wordleTool}, a 5-letter word to guess) and the refund desk (tools ${refundTools.join(', ')}, a ticket naming an ORD- order), and the tools offered and the task match neither.`;

/**
 * Which of its own environments a conversation is, by the tools the agent offers and the task's shape: the script
 * must never call a tool the agent lacks, nor play its own task in place of the agent's.
 */
function scriptedEnvironment(tools: ReadonlySet<string>, first: string): { refund: boolean; wordle: boolean } {
  const others = [...tools].filter((t) => t !== WORDLE_TOOL && !(REFUND_TOOLS as readonly string[]).includes(t));
  if (others.length) return { refund: false, wordle: false };
  const refund = REFUND_TOOLS.every((t) => tools.has(t)) && /\bORD-\d{5}\b/.test(first);
  // A Wordle agent may play by text alone (no tools), as early samples did.
  const wordle = (tools.has(WORDLE_TOOL) || tools.size === 0) && /5-letter|wordle/i.test(first);
  return { refund, wordle };
}

/** A chat completion, or the OpenAI-style error for a request the scripted policy cannot answer. */
export function chatCompletion(body: unknown, now: number, openings?: Map<string, number>): { status: number; body: unknown } {
  const request = (body && typeof body === 'object' ? body : {}) as ChatRequest;
  const messages = Array.isArray(request.messages) ? (request.messages as ChatMessage[]) : [];
  const first = textOf(messages.find((m) => m?.role === 'user')?.content);
  const invalid = (message: string) => ({
    status: 400,
    body: { error: { message, type: 'invalid_request_error', param: 'messages', code: null } },
  });
  if (!first) return invalid('messages must hold at least one user message.');
  const tools = new Set((request.tools ?? []).map((t) => String(t?.function?.name ?? '')));
  const { refund, wordle } = scriptedEnvironment(tools, first);
  if (!refund && !wordle) return invalid(SCRIPT_REFUSAL(WORDLE_TOOL, REFUND_TOOLS));
  const skill = skillOfModel(request.model);
  const calls = messages.filter((m) => m?.role === 'assistant').length;
  const sample = refund ? 0 : sampleOf(first, messages, openings);
  const turn = refund ? nextRefundTurn(first, calls, skill) : nextWordleTurn(first, messages, skill, guessArgument(request), sample);
  const message = turn.call
    ? {
        role: 'assistant',
        content: null,
        reasoning_content: turn.thinking,
        tool_calls: [{ id: `call_s${sample}_${randomUUID().replace(/-/g, '').slice(0, 20)}`, type: 'function', function: turn.call }],
      }
    : { role: 'assistant', content: turn.answer, reasoning_content: turn.thinking };
  const tokens = (text: string) => Math.max(1, Math.ceil(text.length / 4));
  const prompt = tokens(messages.map((m) => textOf(m?.content)).join('\n'));
  const completion = tokens(turn.thinking + (turn.call?.arguments ?? turn.answer ?? ''));
  return {
    status: 200,
    body: {
      id: `chatcmpl-${randomUUID()}`,
      object: 'chat.completion',
      created: Math.floor(now / 1000),
      model: String(request.model ?? 'scripted'),
      choices: [{ index: 0, message, finish_reason: turn.call ? 'tool_calls' : 'stop' }],
      usage: { prompt_tokens: prompt, completion_tokens: completion, total_tokens: prompt + completion },
    },
  };
}
