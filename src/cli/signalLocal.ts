import { readFileSync, writeFileSync } from 'node:fs';
import path from 'node:path';
import { describeEstimate, type CostEstimate } from '../core/jobs/estimate';
import { DEFAULT_PRICING } from '../core/jobs/pricing';
import { projectedTrainingCost, type SignalTokens } from '../core/signal/projectedCost';
import { sampleRows } from '../core/signal/sampleRows';
import { startEmulator } from '../emulator/server';
import { localDatasetRows } from '../services/rollouts';
import { checkHealth } from '../services/smokeServer';
import type { Policy } from '../services/signal/jobRuntime';
import { runLocalSignal, type LocalSignalResult } from '../services/signal/localSignal';
import { UsageError, type CliIO } from './command';
import { harnessScript } from './reward';

/** The options of `mtrl signal --local`, as parsed. */
export interface LocalOptions {
  /** The agent file; empty with `server`. */
  local: string;
  /** A customer rollout server's base URL, played instead of an agent file. */
  server?: string;
  data?: string;
  rows?: string;
  'group-size'?: string;
  seed: string;
  policy: string;
  model?: string;
  'api-key-env': string;
  'endpoint-env'?: string;
  concurrency: string;
  timeout: string;
  python: string;
  steps?: string;
  'batch-size'?: string;
  'transcripts-out'?: string;
  reward?: string;
  store?: string;
}

function positiveInteger(value: string | undefined, name: string): number {
  const n = Number(value);
  if (value === undefined || !Number.isInteger(n) || n < 1)
    throw new UsageError(`--${name} takes a whole number ≥ 1, got '${value ?? ''}'.`);
  return n;
}

/** `emulator[:skill]` (the scripted policy, started here and stopped after) or an OpenAI-compatible base URL. */
async function choosePolicy(o: LocalOptions): Promise<{ policy: Policy; scripted?: boolean; close(): Promise<void> }> {
  const emulator = /^emulator(?::(\d*\.?\d+))?$/.exec(o.policy);
  if (emulator) {
    const server = await startEmulator({ history: false, localClientsOnly: true });
    const policy = { baseUrl: `${server.url}/v1`, model: `scripted-${emulator[1] ?? '0.5'}` };
    return { policy, scripted: true, close: () => server.close() };
  }
  if (!/^https?:\/\//.test(o.policy))
    throw new UsageError(`--policy takes emulator, emulator:SKILL or an OpenAI-compatible base URL (http…/v1), got '${o.policy}'.`);
  const apiKey = process.env[o['api-key-env']] ?? process.env.AWS_BEARER_TOKEN_BEDROCK;
  return { policy: { baseUrl: o.policy, model: o.model, ...(apiKey ? { apiKey } : {}) }, close: async () => undefined };
}

const mean = (xs: number[]) => (xs.length ? xs.reduce((s, x) => s + x, 0) / xs.length : 0);

/** Tokens per rollout, and the planned training job's cost from them when steps and batch size are given; unknown when the
 * policy left usage out or reported counts that break the rule (a figure from them would be too low, not $0.00). */
export function tokenLines(
  result: LocalSignalResult,
  groupSize: number,
  o: LocalOptions,
): {
  lines: string[];
  json: { tokensPerRollout: SignalTokens; tokensUnknown?: string; projectedCost?: CostEstimate & { rollouts: number } };
} {
  const prefill = mean(result.tokens.map((t) => t.prefill));
  const sample = mean(result.tokens.map((t) => t.sample));
  const unreported = result.tokens.reduce((n, t) => n + (t.unreported ?? 0), 0);
  const refused = result.tokens.filter((t) => t.refused);
  const unknown = unreported
    ? `the policy reported no token usage for ${unreported} model call${unreported === 1 ? '' : 's'}`
    : refused.length
      ? `in ${refused.length} of ${result.tokens.length} rollouts ${refused[0].refused}`
      : undefined;
  const counted = `${Math.round(prefill)} prefill, ${Math.round(sample)} sample`;
  const lines = [`  tokens per rollout: ${unknown ? `unknown (${unknown}); counted ${counted}` : counted}`];
  const json: { tokensPerRollout: SignalTokens; tokensUnknown?: string; projectedCost?: CostEstimate & { rollouts: number } } = {
    tokensPerRollout: { prefill, sample },
    ...(unknown ? { tokensUnknown: unknown } : {}),
  };
  if (o.steps !== undefined || o['batch-size'] !== undefined) {
    const rollouts = positiveInteger(o.steps, 'steps') * positiveInteger(o['batch-size'], 'batch-size') * groupSize;
    if (unknown) {
      lines.push(`  planned job at gpt-oss-20b prices: ${rollouts} rollouts (steps × batch size × group size), cost unknown: ${unknown}`);
      return { lines, json };
    }
    const estimate = projectedTrainingCost(
      { prefill, sample },
      rollouts,
      DEFAULT_PRICING['openai-reasoning-gpt-oss-20b'],
      'this signal check',
    );
    lines.push(
      `  planned job at gpt-oss-20b prices: ${rollouts} rollouts (steps × batch size × group size), ${describeEstimate(estimate)}`,
    );
    json.projectedCost = estimate;
  }
  return { lines, json };
}

/** Plays K rows × G rollouts of the agent locally; the transcripts, or a usage error naming what to fix. */
export async function playLocally(o: LocalOptions, io: CliIO): Promise<{ result: LocalSignalResult; groupSize: number; rows: number }> {
  if (!o.data) throw new UsageError('--local needs --data DATASET (JSON Lines, JSON, CSV or Parquet): the rows the agent plays.');
  const k = positiveInteger(o.rows, 'rows');
  const groupSize = positiveInteger(o['group-size'], 'group-size');
  const server = o.server?.replace(/\/+$/, '');
  if (server !== undefined && !/^https?:\/\/[^/]/.test(server))
    throw new UsageError(`--server takes a rollout server's base URL (http://host:port), got '${o.server}'.`);
  if (server) {
    // The SDK's readiness contract first: a server that is not healthy would fail every rollout alike.
    const health = await checkHealth(server, 10_000, io.signal);
    if (!health.ok)
      throw new UsageError(`${health.detail} Start the rollout server, or wait until GET /health answers {"status": "healthy"}.`);
  } else
    try {
      readFileSync(o.local);
    } catch (error) {
      throw new UsageError(`cannot read ${o.local}: ${(error as Error).message}`);
    }
  const rows = await localDatasetRows(o.data).catch((error: Error) => {
    throw new UsageError(`--data: ${error.message} (mtrl validate ${o.data} shows what is wrong)`);
  });
  if (!rows.length) throw new UsageError(`${o.data} has no rows.`);
  const endpointEnv = o['endpoint-env'];
  if (endpointEnv !== undefined && !/^[A-Za-z_][A-Za-z0-9_]*$/.test(endpointEnv))
    throw new UsageError(`--endpoint-env takes an environment variable's name (letters, digits, _), got '${endpointEnv}'.`);
  const picked = sampleRows(rows, k, o.seed);
  const { policy, scripted, close } = await choosePolicy(o);
  const total = picked.length * groupSize;
  // Ctrl-C stops the rollouts and everything they started (each runs in its own process group, out of the terminal's reach).
  const interrupt = new AbortController();
  const onSignal = () => interrupt.abort();
  process.once('SIGINT', onSignal).once('SIGTERM', onSignal);
  io.err(
    `playing ${picked.length} rows × ${groupSize} rollouts of ${server ?? path.basename(o.local)} against ${policy.model ?? policy.baseUrl}`,
  );
  try {
    const result = await runLocalSignal({
      python: o.python,
      script: harnessScript('agent_runner.py'),
      ...(server ? { server } : { agentFile: path.resolve(o.local) }),
      rows: picked,
      groupSize,
      policy,
      scriptedPolicy: scripted ?? false,
      concurrency: positiveInteger(o.concurrency, 'concurrency'),
      ...(endpointEnv ? { endpointEnv } : {}),
      timeoutMs: positiveInteger(o.timeout, 'timeout') * 1000,
      signal: io.signal ? AbortSignal.any([io.signal, interrupt.signal]) : interrupt.signal,
      onProgress: (done) => {
        if (done % Math.max(1, Math.floor(total / 8)) === 0 || done === total) io.err(`  ${done}/${total} rollouts`);
      },
    });
    if (o['transcripts-out'])
      writeFileSync(
        o['transcripts-out'],
        result.transcripts.map((t) => JSON.stringify(t)).join('\n') + (result.transcripts.length ? '\n' : ''),
      );
    return { result, groupSize, rows: picked.length };
  } finally {
    process.off('SIGINT', onSignal).off('SIGTERM', onSignal);
    await close();
  }
}
