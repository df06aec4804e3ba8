import { markGuess, MAX_GUESSES } from '../../../../src/core/environments/wordle';

/** One turn of the agent's rollout record in its one-guess form (the contract the README documents). */
interface RolloutTurn {
  guess: string;
  marks?: string;
  valid?: boolean;
  source?: 'tool' | 'text';
  repeated?: boolean;
}

/** The rollout record the reference agent writes as one JSON log line. */
interface RolloutRecord {
  mtrl_rollout: 1;
  trajectory_id: string;
  job_arn?: string;
  row_id?: string;
  answer: string;
  turns: RolloutTurn[];
  solved: boolean;
  reward: number;
  outcome?: number;
  shaping?: number;
}

const WORDS = [
  'crane',
  'slate',
  'riser',
  'beach',
  'paste',
  'trace',
  'plumb',
  'ghost',
  'flint',
  'mirth',
  'query',
  'vowel',
  'zesty',
  'crowd',
  'shine',
  'bloat',
  'dwarf',
  'knack',
  'lemon',
  'proud',
  'sworn',
  'tiger',
  'unzip',
  'waltz',
];

/** A deterministic pseudo-random stream (mulberry32), so fixtures and benches are the same every run. */
export function random(seed: number): () => number {
  let a = seed >>> 0;
  return () => {
    a = (a + 0x6d2b79f5) >>> 0;
    let t = a;
    t = Math.imul(t ^ (t >>> 15), t | 1);
    t ^= t + Math.imul(t ^ (t >>> 7), t | 61);
    return ((t ^ (t >>> 14)) >>> 0) / 4294967296;
  };
}

/** Plays one scripted game the way the reference agent logs it, with the reference reward design. */
export function playRollout(rand: () => number, answer: string, id: string, rowId: string): RolloutRecord {
  const turns: RolloutTurn[] = [];
  const skill = rand();
  let scored = 0;
  let solved = false;
  const noPlay = rand() < 0.03;
  while (!noPlay && scored < MAX_GUESSES && !solved) {
    if (rand() < 0.05) {
      turns.push({ guess: 'xx', valid: false, source: 'tool' });
      continue;
    }
    const guess = rand() < skill * 0.3 ? answer : WORDS[Math.floor(rand() * WORDS.length)];
    const source = rand() < 0.08 ? 'text' : 'tool';
    if (turns.some((t) => t.guess === guess)) {
      turns.push({ guess, valid: false, source, repeated: true });
      continue;
    }
    scored++;
    const marks = markGuess(guess, answer);
    turns.push({ guess, marks, source });
    solved = marks === 'GGGGG';
  }
  const outcome = solved ? 1.05 + (0.5 * (6 - scored)) / 5 : scored ? -0.5 : -1.5;
  const shaping = noPlay ? 0 : Math.round((rand() * 2 - 1) * 1000) / 1000;
  const reward = Math.round((outcome + (solved ? 0.04 : 0.15) * shaping) * 1000) / 1000;
  return {
    mtrl_rollout: 1,
    trajectory_id: id,
    job_arn: 'arn:aws:sagemaker:us-east-1:111122223333:job/AgentRFT/wordle-demo',
    row_id: rowId,
    answer,
    turns,
    solved,
    reward,
    outcome: Math.round(outcome * 1000) / 1000,
    shaping,
  };
}

/** `count` rollouts in groups of `groupSize` per task, as JSON lines. */
export function rolloutLines(count: number, seed = 7, groupSize = 8): string[] {
  const rand = random(seed);
  const lines: string[] = [];
  for (let i = 0; i < count; i++) {
    const task = Math.floor(i / groupSize);
    const answer = WORDS[task % WORDS.length];
    lines.push(JSON.stringify(playRollout(rand, answer, `t${i}`, `wordle_train_${String(task).padStart(5, '0')}`)));
  }
  return lines;
}

/** An AgentCore runtime log as CloudWatch holds it: JSON lines wrapping the records, among other lines and SDK reward lines. */
export function agentCoreLog(count: number, seed = 11): string {
  const out: string[] = [];
  rolloutLines(count, seed).forEach((line, i) => {
    const timestamp = new Date(Date.UTC(2026, 10, 29, 10, 0, i)).toISOString();
    const { trajectory_id, reward } = JSON.parse(line) as { trajectory_id: string; reward: number };
    out.push(
      JSON.stringify({ timestamp, level: 'INFO', message: 'Invoking agent', logger: 'bedrock_agentcore.app', requestId: `req-${i}` }),
    );
    out.push(JSON.stringify({ timestamp, level: 'INFO', message: line, logger: 'main', requestId: `req-${i}` }));
    out.push(`${timestamp} INFO sagemaker.train.rft.decorator: UpdateReward: trajectory_id=${trajectory_id} rewards=[${reward}]`);
  });
  return `${out.join('\n')}\n`;
}
