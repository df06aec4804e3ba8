import { WordleGame } from './game';
import { canonicalGames, DEFAULT_ANSWER, type CanonicalGame } from './rewardGames';

const TOOL = 'guess_word';

/** The class a Wordle reward is written as: one with `guess` and `final_reward` methods, the one named WordleGame first. */
export function wordleRewardClass(source: string): string | undefined {
  const found: string[] = [];
  let className: string | undefined;
  let [hasGuess, hasReward] = [false, false];
  const close = () => {
    if (className && hasGuess && hasReward) found.push(className);
  };
  for (const line of source.split(/\r?\n/)) {
    const cls = /^class\s+([A-Za-z_]\w*)/.exec(line);
    if (cls || (/^\S/.test(line) && !line.startsWith('#') && !line.startsWith('@'))) {
      close();
      [className, hasGuess, hasReward] = [cls?.[1], false, false];
      continue;
    }
    if (/^\s+(?:async\s+)?def\s+guess\s*\(/.test(line)) hasGuess = true;
    if (/^\s+(?:async\s+)?def\s+final_reward\s*\(/.test(line)) hasReward = true;
  }
  close();
  return found.find((name) => name === 'WordleGame') ?? found[0];
}

/** A game as the tool calls an agent makes, each with the feedback the environment gives it. */
function toolCalls(game: CanonicalGame, answer: string): { name: string; arguments: { guess: string }; result: string }[] {
  const played = new WordleGame(answer);
  return game.guesses.map((guess) => ({ name: TOOL, arguments: { guess }, result: played.guess(guess).feedback }));
}

/** The comparisons a Wordle reward must pass: faster solves win, solves beat losses, losses are negative, never playing is worst. */
function expectations(games: readonly CanonicalGame[]): string[] {
  const solves = games.filter((g) => g.kind === 'solve' && !g.name.includes('-'));
  const slowest = games.filter((g) => g.kind === 'solve' && g.solvedOn === 6);
  const losses = games.filter((g) => g.kind === 'loss');
  const noPlay = games.filter((g) => g.kind === 'no-play');
  return [
    ...solves.slice(1).map((slower, i) => `${solves[i].name} > ${slower.name}`),
    ...slowest.flatMap((solve) => losses.map((loss) => `${solve.name} > ${loss.name}`)),
    ...losses.map((loss) => `${loss.name} < 0`),
    ...noPlay.flatMap((none) => losses.map((loss) => `${none.name} < ${loss.name}`)),
  ];
}

/** The canonical games as a scenario file for the Wordle reward class in `source`, or undefined when it has none. */
export function wordleRewardScenarios(source: string, file: string): Record<string, unknown> | undefined {
  const rewardClass = wordleRewardClass(source);
  if (!rewardClass) return undefined;
  const { answer, games } = canonicalGames(DEFAULT_ANSWER);
  return {
    reward: {
      file,
      class: rewardClass,
      init: { answer: 'answer' },
      tools: { [TOOL]: { method: 'guess', arguments: ['guess'] } },
      score: 'final_reward',
    },
    task: { prompt: `Play Wordle: find the secret five-letter word in six guesses with the ${TOOL} tool.`, answer },
    scenarios: Object.fromEntries(games.map((g) => [g.name, { finished: g.kind === 'solve', tool_calls: toolCalls(g, answer) }])),
    expect: expectations(games),
  };
}
