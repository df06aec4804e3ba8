import { randomUUID } from 'node:crypto';
import { readFileSync } from 'node:fs';
import path from 'node:path';
import { diagnoseLocalRun, type Diagnosis, type PlayedRollout } from '../../core/signal/diagnosis';
import { findHardCodedEndpoint, sharedEndpointAdvice } from '../../core/signal/hardCodedEndpoint';
import { agentRftJobArn } from '../../core/signal/jobRuntimeApi';
import { reportedError, stderrTail } from '../../core/signal/reportedError';
import { RolloutRecording, type RolloutTokens } from '../../core/signal/rolloutRecording';
import type { Transcript } from '../../core/transcript/model';
import { CheckAllowance } from '../../core/signal/checkAllowance';
import { KEPT_OUTPUT_BYTES, runContained } from '../python/containedRun';
import { startJobRuntime, type Policy } from './jobRuntime';
import { parseRunnerOutput } from './runnerOutput';
import { playOnServer } from './serverRollout';

/** One local signal check: K rows × G rollouts of the user's agent entrypoint against a chosen policy. */
export interface LocalSignalRun {
  python: string;
  /** Absolute path of `agent_runner.py`. */
  script: string;
  /** The agent file whose entrypoint plays each rollout; or `server`. */
  agentFile?: string;
  /** A customer rollout server's base URL (the SDK's `POST /rollout`, `GET /health`): it plays each rollout instead. */
  server?: string;
  /** The sampled rows with their 0-based index in the dataset. */
  rows: { row: Record<string, unknown>; index: number }[];
  groupSize: number;
  policy: Policy;
  /** Rollouts played at once (default 4). */
  concurrency?: number;
  /** Per rollout (default 300 s). */
  timeoutMs?: number;
  region?: string;
  /** An environment variable the agent reads its fixed endpoint from: set to the runtime's base URL (…/v1). */
  endpointEnv?: string;
  /** Sent in both spellings (`max_tokens` and `maxTokens`, `top_p` and `topP`): agents read either. */
  inferenceParams?: { temperature?: number; max_tokens?: number; top_p?: number };
  /** The policy is the emulator's scripted one: a refusal then means it does not play this conversation. */
  scriptedPolicy?: boolean;
  signal?: AbortSignal;
  /** What the whole check holds at once (default CHECK_ALLOWANCE_BYTES). */
  allowance?: CheckAllowance;
  onProgress?: (done: number, total: number, last: Transcript) => void;
  onStderr?: (text: string) => void;
}

export interface LocalSignalResult {
  transcripts: Transcript[];
  /** Where the job runtime listened; closed when the run returns. */
  runtimeUrl: string;
  /** Billable tokens of each rollout, in the order of `transcripts`. */
  tokens: RolloutTokens[];
  /** Set when base URL calls could not be matched to a rollout: the sentence naming the line to change. */
  ignoredEndpoint?: string;
  /** Calls that arrived at a path the runtime does not serve (e.g. `…/v1/v1/chat/completions`), most first. */
  unservedPaths: { path: string; count: number }[];
  /** Set when the agent file cannot be run at all (syntax, import, no entrypoint): the run stops at the first. */
  agentProblem?: string;
  /** Why rollouts did not play, one sentence per kind, the most common first: the report's first lines. */
  diagnosis: Diagnosis[];
  cancelled: boolean;
}

/** The documented request spells inferenceParams `maxTokens`/`topP`, the SDK's contract `max_tokens`/`top_p`: both are sent. */
function bothSpellings(p: { temperature?: number; max_tokens?: number; top_p?: number }): Record<string, number | undefined> {
  return { temperature: p.temperature, max_tokens: p.max_tokens, maxTokens: p.max_tokens, top_p: p.top_p, topP: p.top_p };
}

/** The payload the service sends an entrypoint: the row as `instance` and its prompt at the top level (agents read either). */
export function rolloutPayload(
  row: Record<string, unknown>,
  meta: { jobArn: string; trajectoryId: string; endpoint: string; region: string; model: string },
  inferenceParams: LocalSignalRun['inferenceParams'],
): Record<string, unknown> {
  return {
    instance: row,
    prompt: typeof row.prompt === 'string' ? row.prompt : JSON.stringify(row),
    metadata: {
      job_arn: meta.jobArn,
      trajectory_id: meta.trajectoryId,
      endpoint: meta.endpoint,
      region: meta.region,
      jobArn: meta.jobArn,
      trajectoryId: meta.trajectoryId,
      rolloutId: meta.trajectoryId,
    },
    inferenceParams: bothSpellings({ temperature: 1, max_tokens: 4096, top_p: 1, ...inferenceParams }),
    modelName: meta.model,
    modelEndpoint: meta.endpoint,
  };
}

// Failures of the file itself, not of one rollout: every other rollout would fail the same way.
const AGENT_PROBLEMS = ['syntax', 'import', 'not-found'];

/** Plays every rollout, at most `concurrency` at once, then closes the runtime: no process and no port is left. */
export async function runLocalSignal(run: LocalSignalRun): Promise<LocalSignalResult> {
  const allowance = run.allowance ?? new CheckAllowance();
  // A rollout whose draw would pass the allowance is ended here; the others go on.
  const stops = new Map<string, AbortController>();
  const runtime = await startJobRuntime(run.policy, { allowance, onOverAllowance: (id) => stops.get(id)?.abort() });
  const region = run.region ?? 'us-east-1';
  const jobArn = agentRftJobArn(region, '000000000000', `mtrl-local-signal-${Date.now()}`);
  const plan = run.rows.flatMap(({ row, index }) =>
    Array.from({ length: run.groupSize }, () => {
      const id = `local-${index}-${randomUUID().slice(0, 8)}`;
      const prompt = typeof row.prompt === 'string' ? row.prompt : JSON.stringify(row);
      return new RolloutRecording({ id, groupKey: `row-${index}`, row, rowIndex: index, prompt, jobArn }, allowance);
    }),
  );
  const agent = run.agentFile ? path.basename(run.agentFile) : `the rollout server ${run.server ?? ''}`;
  const stopAll = new AbortController();
  const signal = run.signal ? AbortSignal.any([run.signal, stopAll.signal]) : stopAll.signal;
  let agentProblem: string | undefined;
  const stubbed = new Set<string>();
  let next = 0;
  let done = 0;
  const played: RolloutRecording[] = [];
  const facts = new Map<RolloutRecording, PlayedRollout>();
  // What is kept of an agent's stdout and stderr, reserved while it runs.
  const outputBytes = 2 * KEPT_OUTPUT_BYTES;
  const play = async (recording: RolloutRecording): Promise<void> => {
    const stop = new AbortController();
    stops.set(recording.task.id, stop);
    const reserved = allowance.take(outputBytes);
    if (!reserved)
      recording.stop(allowance.exceeded(`Starting this rollout's agent (${outputBytes / (1024 * 1024)} MB kept of its output)`));
    else runtime.add(recording);
    const endpoint = runtime.endpointOf(recording.task.id);
    const model = run.policy.model ?? 'policy';
    const payload = rolloutPayload(
      recording.task.row,
      { jobArn, trajectoryId: recording.task.id, endpoint, region, model },
      run.inferenceParams,
    );
    const rolloutSignal = reserved ? AbortSignal.any([signal, stop.signal]) : AbortSignal.abort();
    const timeoutMs = run.timeoutMs ?? 300_000;
    const outcome = run.server
      ? await playOnServer(run.server, payload, recording, timeoutMs, rolloutSignal)
      : await runContained({
          python: run.python,
          script: run.script,
          request: { file: run.agentFile, payload },
          timeoutMs,
          signal: rolloutSignal,
          onStderr: run.onStderr,
          parse: parseRunnerOutput,
          env: { AWS_REGION: region, ...(run.endpointEnv ? { [run.endpointEnv]: runtime.baseUrl } : {}) },
          say: {
            timeout: `The rollout did not finish within ${timeoutMs / 1000} s and was stopped.`,
            cancelled: 'The signal check was cancelled.',
            crashed: (how) => `The agent runner ${how} without a result`,
          },
        });
    runtime.ended(recording.task.id);
    stops.delete(recording.task.id);
    if (reserved) allowance.give(outputBytes);
    const r = outcome.response;
    // A rollout stopped by cancel is not a failed trajectory: it is left out of the report.
    if (!r.ok && 'error' in r && r.error === 'cancelled' && !recording.stopped) return;
    const stderr = stderrTail(outcome.stderr);
    const fact: PlayedRollout = { answeredCalls: recording.modelCalls - recording.refusals.length, refusals: recording.refusals, stderr };
    if ('stubbed' in r) for (const name of r.stubbed) stubbed.add(name);
    if (recording.stopped) {
      // Its draw would have passed the allowance: the sentence, not what the stopped agent said.
      recording.stop(recording.stopped);
      fact.stopped = recording.stopped;
    } else if (r.ok) {
      recording.returned(r.result);
      fact.reported = reportedError(r.result, fact.answeredCalls, stderr);
      // The agent's own error is a failed rollout, whatever reward it returned with it.
      if (fact.reported) recording.failed(`The agent reported: ${fact.reported}`);
      // A result that carries a stub (a reward from a stubbed framework) did not play either.
      if (JSON.stringify(r.result ?? null).includes('<stub '))
        fact.failure = { message: 'The entrypoint returned a stub’s value.', inStub: true };
    } else {
      const message = 'line' in r && r.line ? `${agent}:${r.line}: ${r.message}` : r.message;
      recording.failed(message);
      fact.failure = { message: r.message, ...('line' in r && r.line ? { line: r.line } : {}), inStub: 'inStub' in r && r.inStub };
      if ('kind' in r && AGENT_PROBLEMS.includes(r.kind)) {
        agentProblem ??= message;
        stopAll.abort();
      }
    }
    done++;
    facts.set(recording, fact);
    played.push(recording);
    run.onProgress?.(done, plan.length, recording.transcript());
  };
  const worker = async () => {
    while (next < plan.length && !signal.aborted) await play(plan[next++]);
  };
  try {
    await Promise.all(Array.from({ length: Math.max(1, Math.min(run.concurrency ?? 4, plan.length)) }, worker));
  } finally {
    await runtime.close();
  }
  const agentSource = run.agentFile ? readFileSync(run.agentFile, 'utf8') : '';
  const result: LocalSignalResult = {
    transcripts: played.map((r) => r.transcript()),
    runtimeUrl: runtime.url,
    tokens: played.map((r) => r.tokens),
    unservedPaths: runtime.unservedPaths(),
    diagnosis: agentProblem
      ? []
      : diagnoseLocalRun({
          agent,
          agentSource,
          python: run.python,
          rollouts: played.map((r) => facts.get(r)!),
          stubbed: [...stubbed],
          unservedPaths: runtime.unservedPaths(),
          scriptedPolicy: run.scriptedPolicy ?? false,
          runtimeUrl: runtime.url,
          endpointEnv: run.endpointEnv,
        }),
    cancelled: run.signal?.aborted ?? false,
  };
  if (agentProblem) result.agentProblem = agentProblem;
  else if (runtime.ambiguous) result.ignoredEndpoint = sharedEndpointAdvice(agent, findHardCodedEndpoint(agentSource), runtime.ambiguous);
  return result;
}
