/** The Python function `MTRL: Insert Rollout Logging` adds to an agent: stdlib only, never raises, one record per rollout. */
export const LOG_ROLLOUT_FUNCTION = `def log_rollout(trajectory_id, answer, turns, reward, job_arn=None, row_id=None, outcome=None, shaping=None, step=None):
    """Prints one mtrl_rollout JSON line: the record MTRL Workbench's replay board reads from the logs."""
    import json  # stdlib only: the agent needs no new dependency
    try:
        turns = [dict(t) for t in turns]
        record = {"mtrl_rollout": 1, "trajectory_id": trajectory_id, "job_arn": job_arn, "row_id": row_id,
                  "answer": answer, "turns": turns, "solved": any(t.get("marks") == "GGGGG" for t in turns),
                  "reward": reward, "outcome": outcome, "shaping": shaping, "step": step}
        print(json.dumps({k: v for k, v in record.items() if v is not None}, default=str), flush=True)
    except Exception:  # noqa: BLE001 - logging must never cost the rollout its reward
        pass
`;

/** Where and what to insert, by 0-based line; or why not. */
export type LoggingPlan =
  | { kind: 'insert'; functionLine?: number; functionText?: string; callLine?: number; callText?: string }
  | { kind: 'already'; message: string }
  | { kind: 'refused'; message: string };

const REWARD_RETURN = /^(\s*)return\s*\{\s*["']reward["']\s*:\s*(.+?)\s*,?\s*\}\s*(#.*)?$/;
const DEF = /^(\s*)(?:async\s+)?def\s+(\w+)\s*\(\s*(\w+)?/;
const GAME = /^\s*(\w+)\s*=\s*\w*Game\(/;

/**
 * Plans the edit for an agent's source: the function before the handler that returns the reward, and one call
 * before its last `return {"reward": …}`. Idempotent: what is already there is not added again.
 */
export function planRolloutLogging(source: string): LoggingPlan {
  const lines = source.split(/\r?\n/);
  let returnLine = -1;
  lines.forEach((line, i) => {
    if (REWARD_RETURN.test(line)) returnLine = i;
  });
  if (returnLine < 0)
    return {
      kind: 'refused',
      message: 'This file has no `return {"reward": …}` line: rollout logging goes just before the handler returns its reward.',
    };
  const [, indent, expression] = REWARD_RETURN.exec(lines[returnLine])!;
  let defLine = -1;
  for (let i = returnLine - 1; i >= 0; i--) {
    const m = DEF.exec(lines[i]);
    if (m && m[1].length < indent.length) {
      defLine = i;
      if (m[1].length === 0) break;
    }
  }
  if (defLine < 0)
    return {
      kind: 'refused',
      message: 'The `return {"reward": …}` line is not inside a function: rollout logging needs the rollout handler.',
    };
  const handler = DEF.exec(lines[defLine])!;
  const hasFunction = lines.some((l) => /^def\s+log_rollout\s*\(/.test(l));
  const body = lines.slice(defLine, returnLine);
  const hasCall = body.some((l) => /^\s*log_rollout\s*\(/.test(l));
  if (hasFunction && hasCall) return { kind: 'already', message: 'This agent already logs a rollout record before returning its reward.' };
  const plan: LoggingPlan = { kind: 'insert' };
  if (!hasFunction) {
    let at = defLine;
    while (at > 0 && /^@/.test(lines[at - 1])) at--;
    plan.functionLine = at;
    plan.functionText = `${LOG_ROLLOUT_FUNCTION}\n\n`;
  }
  if (!hasCall) {
    const payload = handler[3];
    const game = body.map((l) => GAME.exec(l)?.[1]).find(Boolean);
    const metadata = payload ? `((${payload}.get("metadata") or {}) if isinstance(${payload}, dict) else {})` : '{}';
    const args = [
      `${metadata}.get("rolloutId")`,
      game ? `getattr(${game}, "answer", None)` : 'None',
      game ? `getattr(${game}, "turns", [])` : '[]',
      expression,
      `job_arn=${metadata}.get("jobArn")`,
      `step=${metadata}.get("step")`,
    ];
    plan.callLine = returnLine;
    plan.callText = `${indent}log_rollout(${args.join(', ')})\n`;
  }
  return plan;
}
