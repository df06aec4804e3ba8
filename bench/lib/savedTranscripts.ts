// Saved transcripts (`mtrl rollouts --transcripts` output, one a line) of a GRPO run, written for the board and re-score benches.
import { closeSync, openSync, writeSync } from 'node:fs';

// The support game's actions (test/fixtures/workspace/reward-scenarios/support_env.py), so a re-score plays them.
const ACTIONS = ['check_outage', 'inspect_router_lights', 'check_account_config', 'reprovision_account', 'close_ticket'];
const GROUP = 8;
const BATCH = 128;

/** `count` saved transcripts of a GRPO run (batch 128 × group 8 a step), 1–4 tool calls each, written a line at a time. */
export function writeTranscripts(file: string, count: number): number {
  let seed = 11;
  const next = () => (seed = (seed * 1103515245 + 12345) % 2 ** 31) / 2 ** 31;
  const fd = openSync(file, 'w');
  let bytes = 0;
  let chunk = '';
  for (let i = 0; i < count; i++) {
    const step = 1 + Math.floor(i / (BATCH * GROUP));
    const task = Math.floor(i / GROUP);
    const reward = Math.floor(next() * 5) / 4;
    const transcript = {
      id: `tr-${i.toString(16).padStart(12, '0')}`,
      task: {
        prompt: `Ticket ${task % 512}: my internet drops every evening since ${1 + (task % 28)} March; the router lights blink amber.`,
      },
      groupKey: `step-${step}-task-${task}`,
      step,
      stepFrom: 'trace',
      reward,
      status: 'completed',
      source: 'trace',
      solved: reward >= 1,
      turns: Array.from({ length: 1 + Math.floor(next() * 4) }, (_, t) => ({
        thinking: `Turn ${t}: the customer reports evening drops; check the next likely cause before closing.`,
        toolCalls: [
          {
            name: 'take_support_action',
            arguments: { action: ACTIONS[(i + t) % ACTIONS.length] },
            result: { observation: `Result ${t}: nothing unusual found.`, done: false },
          },
        ],
      })),
    };
    chunk += `${JSON.stringify(transcript)}\n`;
    if (chunk.length > 1 << 20) {
      bytes += writeSync(fd, chunk);
      chunk = '';
    }
  }
  bytes += writeSync(fd, chunk);
  closeSync(fd);
  return bytes;
}
