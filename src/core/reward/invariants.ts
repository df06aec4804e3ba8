/** How the harness feeds a game's guesses to the reward class: `guess(word)` or `guess_from_text(word)`. */
export type GuessRoute = 'guess' | 'text';

/** One scripted game the reward is scored on (the environment pack's rewardPreview chooses them). */
export interface CanonicalGame {
  name: string;
  guesses: string[];
  via: GuessRoute;
  /** The guess number that solves it, absent for losses and no-play. */
  solvedOn?: number;
  kind: 'solve' | 'loss' | 'no-play';
}

/** A canonical game with the reward the user's code gave it. */
export interface ScoredGame extends CanonicalGame {
  reward: number;
}

type InvariantName = 'faster-solve-wins' | 'solve-beats-loss' | 'loss-negative' | 'no-play-worst';

export interface InvariantResult {
  name: InvariantName;
  ok: boolean;
  /** A sentence naming the games involved; when it fails, the pair that breaks it. */
  detail: string;
}

/** A reward as the preview prints it: two decimals, explicit sign, a real minus sign. */
export function signed(value: number): string {
  const text = Math.abs(value).toFixed(2);
  if (text === '0.00') return '0.00';
  return value < 0 ? `\u2212${text}` : `+${text}`;
}

const scored = (g: ScoredGame) => `${g.name} ${signed(g.reward)}`;

function extreme(games: ScoredGame[], pick: 'min' | 'max'): ScoredGame | undefined {
  return games.reduce<ScoredGame | undefined>(
    (best, g) => (!best || (pick === 'min' ? g.reward < best.reward : g.reward > best.reward) ? g : best),
    undefined,
  );
}

/** " (3 more pairs)" after the worst case, when there are others. */
function andMore(count: number, one: string, many: string): string {
  return count > 1 ? ` (${count - 1} more ${count === 2 ? one : many})` : '';
}

function fasterSolveWins(games: ScoredGame[]): InvariantResult {
  const solves = games.filter((g) => g.solvedOn !== undefined).sort((a, b) => a.solvedOn! - b.solvedOn!);
  const broken: [ScoredGame, ScoredGame][] = [];
  for (const faster of solves) {
    for (const slower of solves) {
      if (faster.solvedOn! < slower.solvedOn! && !(faster.reward > slower.reward)) broken.push([faster, slower]);
    }
  }
  if (!broken.length)
    return {
      name: 'faster-solve-wins',
      ok: true,
      detail: `every faster solve scores above every slower one (${solves.map(scored).join(', ')})`,
    };
  const [faster, slower] = broken.reduce((worst, pair) =>
    pair[1].reward - pair[0].reward > worst[1].reward - worst[0].reward ? pair : worst,
  );
  const verb = faster.reward === slower.reward ? 'ties with' : 'is below';
  return {
    name: 'faster-solve-wins',
    ok: false,
    detail: `${faster.name} scores ${signed(faster.reward)}, which ${verb} ${slower.name} at ${signed(slower.reward)}: a slower solve is rewarded as much or more${andMore(broken.length, 'pair', 'pairs')}`,
  };
}

function solveBeatsLoss(games: ScoredGame[]): InvariantResult {
  const lowestSolve = extreme(
    games.filter((g) => g.kind === 'solve'),
    'min',
  );
  const highestLoss = extreme(
    games.filter((g) => g.kind === 'loss'),
    'max',
  );
  if (!lowestSolve || !highestLoss) return { name: 'solve-beats-loss', ok: true, detail: 'no solve or no loss to compare' };
  if (lowestSolve.reward > highestLoss.reward) {
    return {
      name: 'solve-beats-loss',
      ok: true,
      detail: `the lowest solve (${scored(lowestSolve)}) is above the highest loss (${scored(highestLoss)})`,
    };
  }
  return {
    name: 'solve-beats-loss',
    ok: false,
    detail: `${lowestSolve.name} scores ${signed(lowestSolve.reward)}, not above ${highestLoss.name} at ${signed(highestLoss.reward)}: a lost game scores as much as a solve`,
  };
}

function lossNegative(games: ScoredGame[]): InvariantResult {
  const losses = games.filter((g) => g.kind === 'loss');
  const rewarded = losses.filter((g) => !(g.reward < 0));
  if (!rewarded.length) return { name: 'loss-negative', ok: true, detail: `every loss scores below 0 (${losses.map(scored).join(', ')})` };
  const worst = extreme(rewarded, 'max')!;
  const what = worst.reward === 0 ? 'a lost game is not penalised' : 'a lost game is rewarded';
  return {
    name: 'loss-negative',
    ok: false,
    detail: `${worst.name} scores ${signed(worst.reward)}: ${what}${andMore(rewarded.length, 'loss', 'losses')}`,
  };
}

function noPlayWorst(games: ScoredGame[]): InvariantResult {
  const noPlay = games.find((g) => g.kind === 'no-play');
  const lowestOther = extreme(
    games.filter((g) => g.kind !== 'no-play'),
    'min',
  );
  if (!noPlay || !lowestOther) return { name: 'no-play-worst', ok: true, detail: 'no no-play game to compare' };
  if (noPlay.reward < lowestOther.reward) {
    return {
      name: 'no-play-worst',
      ok: true,
      detail: `${scored(noPlay)} is below every other game (the next lowest is ${scored(lowestOther)})`,
    };
  }
  return {
    name: 'no-play-worst',
    ok: false,
    detail: `no-play scores ${signed(noPlay.reward)}, not below ${lowestOther.name} at ${signed(lowestOther.reward)}: never making a valid guess is not the worst outcome`,
  };
}

/** The four properties a Wordle reward must have, checked on the canonical games. */
export function checkInvariants(games: ScoredGame[]): InvariantResult[] {
  return [fasterSolveWins(games), solveBeatsLoss(games), lossNegative(games), noPlayWorst(games)];
}
