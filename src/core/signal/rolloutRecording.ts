import { CheckAllowance, KEPT_ROLLOUT_BYTES, megabytes } from './checkAllowance';
import { followsRewardRule, followsTokenCountRule, quotedValue, REWARD_RULE, TOKEN_COUNT_RULE } from '../numberRules';
import type { ToolCall, Transcript, TranscriptStatus } from '../transcript/model';
import { parseOutsideJson } from '../text/json';
import { rewardOf } from '../transcript/record';

// A rollout as the job runtime sees it: the agent's model calls (OpenAI chat completions), then the SDK's
// complete-rollout and update-reward calls, or the entrypoint's returned reward. The service builds its traces
// from the same calls, so the transcript here has the shape of one read from a real job's traces.

interface ChatMessage {
  role?: unknown;
  content?: unknown;
  tool_call_id?: unknown;
}

interface ResponseToolCall {
  id?: unknown;
  function?: { name?: unknown; arguments?: unknown };
}

/** Text of a message's content: a string, or the text parts of a list. */
export function messageText(content: unknown): string {
  if (typeof content === 'string') return content;
  if (!Array.isArray(content)) return '';
  return content.map((part) => (typeof part === 'string' ? part : String((part as { text?: unknown })?.text ?? ''))).join('');
}

/** JSON text parsed, other text kept as it is. */
function parsedOrText(value: unknown): unknown {
  if (typeof value !== 'string') return value;
  try {
    return parseOutsideJson(value);
  } catch {
    return value;
  }
}

/** Billable tokens as the service counts them: the prompt of every model call is prefill, its completion is sample. */
export interface RolloutTokens {
  prefill: number;
  sample: number;
  /** Why a count the policy reported was left out, the first such. */
  refused?: string;
  /** Model calls the policy answered without any token usage: the counts are then too low, by an unknown amount. */
  unreported?: number;
}

export interface RolloutTask {
  id: string;
  groupKey: string;
  row: Record<string, unknown>;
  rowIndex: number;
  /** The row's prompt, until the agent's first user message replaces it. */
  prompt: string;
  jobArn: string;
}

/** One rollout being recorded: model calls as they pass, then its status and reward. */
export class RolloutRecording {
  readonly tokens: RolloutTokens = { prefill: 0, sample: 0 };
  modelCalls = 0;
  /** What the policy answered to the model calls it refused: the report names it. */
  readonly refusals: string[] = [];
  private firstUserMessage?: string;
  private readonly turns: Transcript['turns'] = [];
  // Tool calls waiting for their result, by the id the model gave them: the result comes in the next request.
  private readonly pending = new Map<string, ToolCall>();
  private status?: TranscriptStatus;
  private rewards?: number[];
  private error?: string;
  private metrics?: Record<string, unknown>;
  private summary?: string;
  private refusedReward = false;
  private keptBytes = 0;
  private cut?: string;
  /** Why the rollout was stopped mid-way (its draw would have passed the check's allowance); its agent is to be ended. */
  stopped?: string;

  /** `allowance`: the check's, which what is kept of this rollout draws on (none: kept up to KEPT_ROLLOUT_BYTES only). */
  constructor(
    readonly task: RolloutTask,
    private readonly allowance?: CheckAllowance,
  ) {}

  /** Ends the rollout with the sentence: a failed trajectory, whatever it reports after. */
  stop(sentence: string): void {
    this.stopped ??= sentence;
    this.failed(this.stopped);
  }

  /** Keeps `bytes` more of this rollout when they fit its cap and the check's allowance; else cuts it, with a note. */
  private keep(bytes: number): boolean {
    if (this.cut) return false;
    if (this.keptBytes + bytes > KEPT_ROLLOUT_BYTES) {
      this.cut = `[The rest of this rollout was not kept: what is kept of one rollout stops at ${megabytes(KEPT_ROLLOUT_BYTES)}.]`;
      this.turns.push({ text: this.cut, toolCalls: [] });
      return false;
    }
    if (this.allowance && !this.allowance.take(bytes)) {
      this.stop(this.allowance.exceeded(`What is kept of this rollout (${megabytes(this.keptBytes)} so far)`));
      return false;
    }
    this.keptBytes += bytes;
    return true;
  }

  /** One model call: the request's tool results go to the calls they answer, the response becomes a turn. */
  modelCall(request: unknown, response: unknown): void {
    this.modelCalls++;
    const messages = (request as { messages?: unknown })?.messages;
    for (const m of Array.isArray(messages) ? (messages as ChatMessage[]) : []) {
      if (m?.role === 'user' && this.firstUserMessage === undefined) this.firstUserMessage = messageText(m.content);
      if (m?.role !== 'tool' || typeof m.tool_call_id !== 'string') continue;
      const call = this.pending.get(m.tool_call_id);
      if (!call) continue;
      const result = messageText(m.content);
      if (!this.keep(result.length)) continue;
      call.result = parsedOrText(result);
      this.pending.delete(m.tool_call_id);
    }
    const body = response as {
      choices?: { message?: Record<string, unknown> }[];
      usage?: { prompt_tokens?: unknown; completion_tokens?: unknown };
    };
    this.countUsage(body?.usage);
    const message = body?.choices?.[0]?.message;
    if (!message) return;
    const thinking = [message.reasoning_content, message.reasoning, message.thinking].find((t) => typeof t === 'string' && t);
    const text = messageText(message.content);
    const calls = Array.isArray(message.tool_calls) ? (message.tool_calls as ResponseToolCall[]) : [];
    const callBytes = calls.reduce((n, c) => n + String(c?.function?.name ?? '').length + String(c?.function?.arguments ?? '').length, 0);
    if (!this.keep(text.length + String(thinking ?? '').length + callBytes)) return;
    const toolCalls = calls.map((c) => {
      const call: ToolCall = { name: String(c?.function?.name ?? ''), arguments: parsedOrText(c?.function?.arguments) };
      if (typeof c?.id === 'string') this.pending.set(c.id, call);
      return call;
    });
    this.turns.push({ ...(thinking ? { thinking: thinking as string } : {}), ...(text ? { text } : {}), toolCalls });
  }

  /** A model call's token usage; a count that breaks the token count rule is not counted, and the first such is named. */
  private countUsage(usage: { prompt_tokens?: unknown; completion_tokens?: unknown } | undefined): void {
    const given = (v: unknown) => v !== undefined && v !== null;
    if (!given(usage?.prompt_tokens) && !given(usage?.completion_tokens)) this.tokens.unreported = (this.tokens.unreported ?? 0) + 1;
    for (const [field, into] of [
      ['prompt_tokens', 'prefill'],
      ['completion_tokens', 'sample'],
    ] as const) {
      const count = usage?.[field];
      if (count === undefined || count === null) continue;
      if (followsTokenCountRule(count)) this.tokens[into] += count;
      else
        this.tokens.refused ??= `the policy's ${field} ${quotedValue(count)} breaks the token count rule (${TOKEN_COUNT_RULE}) and was not counted`;
    }
  }

  /** A model call the runtime could not forward: the agent sees an error, the rollout keeps it. */
  modelCallFailed(message: string): void {
    // A call cut because the rollout was stopped says nothing of the policy: the stop's sentence is the cause.
    if (this.stopped) return;
    this.modelCalls++;
    this.refusals.push(message);
    this.error ??= message;
  }

  /** Its status is known: completed, failed or skipped (a rollout server may report after it answered). */
  get settled(): boolean {
    return this.status !== undefined;
  }

  /** The SDK's complete-rollout: `ready` or `failed`. */
  completed(status: unknown): void {
    // A refused reward keeps the rollout failed: the SDK may complete it after reporting the reward.
    this.status = status === 'failed' || this.refusedReward ? 'error' : 'completed';
  }

  /** The SDK's update-reward: a list of rewards (per turn when more than one). */
  rewarded(rewards: unknown): void {
    const { reward, perTurn } = rewardOf(rewards);
    if (reward !== undefined && followsRewardRule(reward) && (perTurn ?? []).every(followsRewardRule)) this.rewards = perTurn ?? [reward];
    else if (reward !== undefined) {
      this.refusedReward = true;
      this.failed(`The agent reported the reward ${quotedValue(rewards)}, which breaks the reward rule: ${REWARD_RULE}.`);
    }
  }

  /** An UpdateReward refused at the boundary: the rollout fails with the sentence naming the rule. */
  rewardRefused(sentence: string): void {
    this.refusedReward = true;
    this.failed(`The agent's UpdateReward was refused: ${sentence}`);
  }

  /** What the entrypoint returned, used where the SDK did not report: `{reward}`, `{status: "error"|"skipped"}`, `metrics`. */
  returned(value: unknown): void {
    const v = (value && typeof value === 'object' ? value : {}) as Record<string, unknown>;
    if (v.metrics && typeof v.metrics === 'object') this.metrics = v.metrics as Record<string, unknown>;
    if (typeof v.summary === 'string' && v.summary) this.summary = v.summary;
    if (v.status === 'error') {
      this.status ??= 'error';
      this.error ??= typeof v.error === 'string' ? v.error : 'The entrypoint returned status "error".';
    } else if (v.status === 'skipped') this.status ??= 'skipped';
    if (this.rewards === undefined && v.reward !== undefined) this.rewarded(v.reward);
    if (this.rewards !== undefined) this.status ??= 'completed';
  }

  /** The entrypoint raised or the run stopped: a failed trajectory (reward 0 in training). */
  failed(message: string): void {
    this.status = 'error';
    this.error = message;
  }

  transcript(): Transcript {
    const { id, groupKey, row, rowIndex, prompt, jobArn } = this.task;
    const status = this.status ?? (this.error ? 'error' : 'completed');
    const t: Transcript = {
      id,
      jobArn,
      task: { prompt: this.firstUserMessage ?? prompt, row, rowIndex },
      groupKey,
      status,
      turns: this.turns,
      time: Date.now(),
      source: 'trace',
      // One local check is one batch of one policy: its groups are the policy's, with no steps to pool.
      step: 1,
      stepFrom: 'local-check',
    };
    if (this.rewards && status !== 'error') t.reward = this.rewards.reduce((s, r) => s + r, 0);
    if (this.rewards && this.rewards.length > 1 && this.rewards.length === this.turns.length)
      this.turns.forEach((turn, i) => (turn.reward = this.rewards![i]));
    if (this.error && status === 'error') t.error = this.error;
    if (this.metrics) t.metrics = this.metrics;
    if (this.summary) t.fields = { summary: this.summary };
    // Calls still waiting: the agent ended after them, so their results never reached the runtime.
    for (const call of this.pending.values()) if (call.result === undefined && call.error === undefined) call.resultNotSeen = true;
    return t;
  }
}
