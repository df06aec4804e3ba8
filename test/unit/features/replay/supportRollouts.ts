import { readFileSync } from 'node:fs';
import path from 'node:path';

const traces = path.resolve(__dirname, '../../../fixtures/real-run/traces');
const line = (file: string) => JSON.stringify(JSON.parse(readFileSync(path.join(traces, file), 'utf8')));

/** The real run's support traces (one task, two rollouts), as the JSON lines a user's `traces.json` folder reads as. */
export function realSupportTraces(): string[] {
  return ['support_traces.rollout1.raw.json', 'support_traces.rollout2.raw.json'].map(line);
}

/** A real-shaped Wordle trace (REST `batchGet` form): thinking per turn, one `guess_word` call each. */
export function realWordleTrace(): string {
  return line('wordle_trace.batchGet.json');
}

const RIGHT = ['check_outage', 'inspect_router_lights', 'check_account_config', 'apply_config_fix'];

/**
 * Records of a support agent in the generic form (thinking, tool calls with JSON-text arguments and results, metrics):
 * `tickets` tasks × `group` rollouts per step. A rollout that restarts the router loses the rest of its credit, so the
 * action table should show `action=restart_router` with the below-average rollouts; the last rollout of odd tickets fails.
 */
export function supportRecords(tickets: number, group: number, steps = 1): string[] {
  const lines: string[] = [];
  for (let step = 1; step <= steps; step++)
    for (let ticket = 0; ticket < tickets; ticket++)
      for (let k = 0; k < group; k++) {
        const restartAt = (ticket + k + step) % 3 === 0 ? 1 + ((ticket + k) % 3) : undefined;
        const actions = RIGHT.map((a, i) => (i === restartAt ? 'restart_router' : a)).slice(0, restartAt === undefined ? 4 : restartAt + 1);
        const progress = restartAt ?? 4;
        const failed = k === group - 1 && ticket % 2 === 1;
        const turns = actions.map((action, i) => ({
          thinking: `Ticket ${ticket}: after ${i} steps the next check is ${action}.`,
          tool_calls: [
            {
              name: 'take_support_action',
              arguments: JSON.stringify({ action }),
              ...(failed && i === actions.length - 1
                ? { error: 'The support backend timed out.' }
                : {
                    result: JSON.stringify({
                      accepted: action !== 'restart_router',
                      state: `${action}_done`,
                      terminal: action === 'apply_config_fix',
                      turn: i + 1,
                    }),
                  }),
            },
          ],
        }));
        lines.push(
          JSON.stringify({
            mtrl_rollout: 1,
            trajectory_id: `support-s${step}-t${ticket}-r${k}`,
            prompt: `Resolve ticket ${ticket}: the customer's internet is down.\nCustomer says: lights are red.`,
            step,
            reward: failed ? 0 : progress / 4,
            ...(failed ? { status: 'error', error: 'The support backend timed out.' } : {}),
            metrics: {
              task_completed: !failed && progress === 4,
              progress_steps: progress,
              turn_count: actions.length,
              actions_taken: actions.length,
            },
            turns,
          }),
        );
      }
  return lines;
}
