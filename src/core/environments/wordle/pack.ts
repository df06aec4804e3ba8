import type { ToolCall, Transcript } from '../../transcript/model';
import { asFields } from '../../text/json';
import type { EnvironmentPack, PackLogLine } from '../types';
import { wordleAgentAdvice } from './agentAdvice';
import { guessOf, TOOL } from './calls';
import { wordleDatasetChecks } from './datasetChecks';
import { parseFeedbackLine } from './feedback';
import { wordleRewardScenarios } from './rewardScenarios';
import { ignoresFeedback } from './scan';
import { isValidWord, MAX_GUESSES } from './marks';
import { MAX_TOOL_CALLS, normalizeTurns, scoredGuesses, type WordleTurn } from './turns';

/** What the Wordle renderer reads from `transcript.env.data`. */
export interface WordleData {
  /** Lower case; absent when no source named it. */
  answer?: string;
  turns: WordleTurn[];
}

const LOSS = /Out of guesses\. The word was ([A-Za-z]{5})/;
const SOLVED = 'GGGGG';

/** The feedback text of a call's result: the tool's text, a `{feedback}` object's, or a Strands/MCP `{content: [{text}]}`'s. */
function feedbackOf(result: unknown): string | undefined {
  if (typeof result === 'string') return result;
  const fields = asFields(result);
  if (typeof fields?.feedback === 'string') return fields.feedback;
  if (!Array.isArray(fields?.content)) return undefined;
  const texts = fields.content.map((part) => asFields(part)?.text).filter((t): t is string => typeof t === 'string');
  return texts.length ? texts.join('\n') : undefined;
}

/** One guess as the tiles need it: marks and validity from the call's own fields, its result object, or its feedback text. */
function rawTurn(call: ToolCall, guess: string): Record<string, unknown> {
  const args = asFields(call.arguments) ?? {};
  const result = asFields(call.result);
  const read = feedbackOf(call.result)
    ?.split(/\r?\n/)
    .map(parseFeedbackLine)
    .find((t) => t);
  return {
    guess,
    marks: args.marks ?? result?.marks ?? read?.marks,
    valid: args.valid === false || result?.valid === false || read?.valid === false ? false : undefined,
    repeated: args.repeated === true || read?.repeated === true,
    source: args.source,
  };
}

function answerOf(transcript: Transcript, raw: readonly Record<string, unknown>[], calls: readonly ToolCall[]): string | undefined {
  const named = transcript.fields?.answer ?? transcript.task.row?.answer;
  if (isValidWord(named)) return named.toLowerCase();
  const solving = raw.find((t) => t.marks === SOLVED)?.guess;
  if (isValidWord(solving)) return solving.toLowerCase();
  for (const call of calls) {
    const loss = LOSS.exec(feedbackOf(call.result) ?? '');
    if (loss) return loss[1].toLowerCase();
  }
  return undefined;
}

/** Wordle: a `guess_word`-style tool (a `guess` argument) with feedback results, or a record or dataset row that names a five-letter answer. */
export const wordlePack: EnvironmentPack = {
  id: 'wordle',
  maxToolCalls: MAX_TOOL_CALLS,
  agentAdvice: wordleAgentAdvice,
  datasetChecks: wordleDatasetChecks,
  rewardScenarios: wordleRewardScenarios,
  scanners: [ignoresFeedback],
  recognizes(transcript) {
    if (isValidWord(transcript.fields?.answer) || isValidWord(transcript.task.row?.answer)) return true;
    for (const turn of transcript.turns) for (const call of turn.toolCalls) if (guessOf(call) !== undefined) return true;
    return false;
  },
  enrich(transcript) {
    const calls: ToolCall[] = [];
    const raw: Record<string, unknown>[] = [];
    for (const turn of transcript.turns)
      for (const call of turn.toolCalls) {
        const guess = guessOf(call);
        if (guess === undefined || raw.length >= MAX_TOOL_CALLS) continue;
        calls.push(call);
        raw.push(rawTurn(call, guess));
      }
    const answer = answerOf(transcript, raw, calls);
    const turns = normalizeTurns(raw, answer);
    const said = transcript.fields?.solved;
    const data: WordleData = { answer, turns };
    return {
      pack: 'wordle',
      solved: typeof said === 'boolean' ? said : turns.some((t) => t.marks === SOLVED),
      label: answer?.toUpperCase(),
      moves: scoredGuesses(turns),
      data,
    };
  },
  readLogLine(line) {
    if (line.includes('Out of guesses')) {
      const m = LOSS.exec(line);
      return m ? { ends: true, fields: { answer: m[1].toLowerCase() } } : undefined;
    }
    if (!line.includes('uess')) return undefined;
    const turn = parseFeedbackLine(line);
    if (!turn) return undefined;
    const read: PackLogLine = { call: { name: TOOL, arguments: { guess: turn.guess }, result: line.trim() }, counts: turn.valid };
    if (turn.number === 1) read.starts = true;
    if (turn.marks === SOLVED) read.fields = { answer: turn.guess };
    if (turn.marks === SOLVED || turn.number === MAX_GUESSES) read.ends = true;
    return read;
  },
  summary(rollouts) {
    const toSolve = [0, 0, 0, 0, 0, 0, 0];
    for (const r of rollouts)
      if (r.pack === 'wordle' && r.solved && r.packMoves && r.moves >= 1 && r.moves <= MAX_GUESSES) toSolve[r.moves]++;
    return { guesses_to_solve: Object.fromEntries([1, 2, 3, 4, 5, 6].map((n) => [String(n), toSolve[n]])) };
  },
};
