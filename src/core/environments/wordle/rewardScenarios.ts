import type { ScenarioDocument } from '../types';
import { WordleGame } from './game';
import { referenceOutcome } from './referenceReward';
import { canonicalGames, DEFAULT_ANSWER, type CanonicalGame } from './rewardGames';

const TOOL = 'guess_word';

/** The class a Wordle reward is written as: one with `guess` and `final_reward` methods, the one named WordleGame first. */
export function wordleRewardClass(source: string): string | undefined {
  return rewardClasses(source).find((c) => c.name === 'WordleGame')?.name ?? rewardClasses(source)[0]?.name;
}

/** Each class with `guess` and `final_reward`, and whether it has `guess_from_text` (the raw-text route). */
function rewardClasses(source: string): { name: string; fromText: boolean }[] {
  const found: { name: string; fromText: boolean }[] = [];
  let className: string | undefined;
  let [hasGuess, hasReward, fromText] = [false, false, false];
  const close = () => {
    if (className && hasGuess && hasReward) found.push({ name: className, fromText });
  };
  for (const line of source.split(/\r?\n/)) {
    const cls = /^class\s+([A-Za-z_]\w*)/.exec(line);
    if (cls || (/^\S/.test(line) && !line.startsWith('#') && !line.startsWith('@'))) {
      close();
      [className, hasGuess, hasReward, fromText] = [cls?.[1], false, false, false];
      continue;
    }
    if (/^\s+(?:async\s+)?def\s+guess\s*\(/.test(line)) hasGuess = true;
    if (/^\s+(?:async\s+)?def\s+final_reward\s*\(/.test(line)) hasReward = true;
    if (/^\s+(?:async\s+)?def\s+guess_from_text\s*\(/.test(line)) fromText = true;
  }
  close();
  return found;
}

/** A game as the tool calls an agent makes, each with the feedback the environment gives it. */
function toolCalls(game: CanonicalGame, answer: string): { name: string; arguments: { guess: string }; result: string }[] {
  const played = new WordleGame(answer);
  return game.guesses.map((guess) => ({
    name: TOOL,
    arguments: { guess },
    result: played.guess(guess).feedback,
    ...(game.asText ? { as_text: true } : {}),
  }));
}

/**
 * A game's outcome as Wordle knows it (the reference design's: any solve above any loss, a faster solve higher, never a
 * valid guess lowest). Feeds "the outcome decides the order" for a reward that returns no outcome of its own.
 */
const outcomeOf = (game: CanonicalGame) => referenceOutcome(game.solvedOn, game.kind === 'no-play' ? 0 : game.guesses.length).outcome;

/** The comparisons a Wordle reward must pass: faster solves win, solves beat losses, losses are negative, never playing is worst. */
function expectations(games: readonly CanonicalGame[]): string[] {
  const solves = games.filter((g) => g.kind === 'solve' && !g.name.includes('-'));
  const rawText = games.filter((g) => g.asText);
  const slowest = games.filter((g) => g.kind === 'solve' && g.solvedOn === 6);
  const losses = games.filter((g) => g.kind === 'loss');
  const noPlay = games.filter((g) => g.kind === 'no-play');
  return [
    ...solves.slice(1).map((slower, i) => `${solves[i].name} > ${slower.name}`),
    ...slowest.flatMap((solve) => losses.map((loss) => `${solve.name} > ${loss.name}`)),
    ...losses.map((loss) => `${loss.name} < 0`),
    ...noPlay.flatMap((none) => losses.map((loss) => `${none.name} < ${loss.name}`)),
    // Raw text is a light penalty at most: never above the same game played with tool calls, still above a slower solve.
    ...rawText.flatMap((text) => [`${text.name} <= solve@${text.solvedOn}`, `${text.name} > solve@${text.solvedOn! + 1}`]),
  ];
}

/** The canonical games as a scenario file for the Wordle reward class in `source`, or undefined when it has none. */
export function wordleRewardScenarios(source: string, file: string): ScenarioDocument | undefined {
  const classes = rewardClasses(source);
  const rewardClass = classes.find((c) => c.name === 'WordleGame') ?? classes[0];
  if (!rewardClass) return undefined;
  const { answer, games } = canonicalGames(DEFAULT_ANSWER);
  return {
    reward: {
      file,
      class: rewardClass.name,
      init: { answer: 'answer' },
      tools: { [TOOL]: { method: 'guess', arguments: ['guess'], ...(rewardClass.fromText ? { text: 'guess_from_text' } : {}) } },
      score: 'final_reward',
    },
    task: { prompt: `Play Wordle: find the secret five-letter word in six guesses with the ${TOOL} tool.`, answer },
    scenarios: Object.fromEntries(
      games.map((g) => [g.name, { finished: g.kind === 'solve', outcome: outcomeOf(g), tool_calls: toolCalls(g, answer) }]),
    ),
    expect: expectations(games),
  };
}
