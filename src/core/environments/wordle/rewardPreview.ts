import type { PackRewardPreview } from '../../reward/packPreview';
import { isValidWord, markGuess, MARK_NAMES, type Mark } from './marks';
import { answerProblem, canonicalGames, DEFAULT_ANSWER } from './rewardGames';

/** The reward preview's Wordle games for an answer, each guess drawn as its coloured tiles. */
export const wordleRewardPreview: PackRewardPreview = {
  defaultAnswer: DEFAULT_ANSWER,
  answerProblem,
  games: (answer) => canonicalGames(answer),
  tiles(move, answer) {
    if (!isValidWord(move)) return undefined;
    const marks = markGuess(move, answer);
    return [...move.toUpperCase()].map((letter, i) => ({ letter, mark: marks[i], name: MARK_NAMES[marks[i] as Mark] }));
  },
};
