import { findHardCodedEndpoint, ignoredEndpointAdvice } from './hardCodedEndpoint';

/** What one locally played rollout showed the runtime and the runner: enough to say why it did not play. */
export interface PlayedRollout {
  /** Model calls the policy answered. */
  answeredCalls: number;
  /** What the policy answered to the model calls it refused. */
  refusals: readonly string[];
  /** The entrypoint raised (or returned an error): the message, its line in the agent file, and whether a stub was in the way. */
  failure?: { message: string; line?: number; inStub?: boolean };
  /** The error the agent itself reported (a returned status, summary or metric, or a caught exception it logged). */
  reported?: string;
  /** The last lines the agent wrote to stderr. */
  stderr?: readonly string[];
  /** The local check stopped it: the sentence naming whose draw would have passed the check's allowance. */
  stopped?: string;
}

/** Everything a local check knows about why its rollouts did not play. */
export interface LocalRunFacts {
  /** The agent file's name, as the report shows it. */
  agent: string;
  /** The agent file's text, to find a hard-coded host in. */
  agentSource: string;
  python: string;
  rollouts: readonly PlayedRollout[];
  /** Packages the agent imports that are not installed for `python`: the runner replaced them with stubs. */
  stubbed: readonly string[];
  /** Calls that arrived at paths the runtime does not serve. */
  unservedPaths: readonly { path: string; count: number }[];
  /** The policy is the emulator's scripted one, which plays only its own environments. */
  scriptedPolicy: boolean;
  /** Where the local runtime listens. */
  runtimeUrl: string;
  /** The variable `--endpoint-env` set to the local runtime's URL, when given. */
  endpointEnv?: string;
}

/**
 * Why rollouts did not play, in the one order the first line follows (the first that applies): the check's allowance
 * stopped them (what the agent or the policy said after that is its echo), the policy refused,
 * a stub stood in the way, the agent's own reported error, an exception that escaped it, calls at a path the runtime
 * does not serve, no model call at all.
 */
export type DiagnosisKind = 'stopped' | 'policy-refused' | 'inside-stub' | 'agent-reported' | 'agent-raised' | 'unserved-path' | 'no-call';

export interface Diagnosis {
  kind: DiagnosisKind;
  /** Rollouts of this kind. */
  rollouts: number;
  sentence: string;
}

const ORDER: DiagnosisKind[] = ['stopped', 'policy-refused', 'inside-stub', 'agent-reported', 'agent-raised', 'unserved-path', 'no-call'];

// An agent's own check of the endpoint (an allow-list of hosts) speaks of endpoints, hosts and trust.
const ALLOW_LIST = /untrusted|not allowed|allow-?list|refus\w* .*(endpoint|host|url)|(endpoint|host|url).* (refused|not trusted)/i;

// How Python's clients say a host could not be reached (urllib, requests, httpx, openai).
const UNREACHABLE =
  /URLError|ConnectionError|ConnectError|APIConnectionError|getaddrinfo|Name or service not known|nodename nor servname|Connection refused|timed out/i;

/** The kind of trouble a rollout had, or undefined when it played: a model call answered and no error. */
export function rolloutTrouble(r: PlayedRollout, callsWentAstray: boolean): DiagnosisKind | undefined {
  if (r.stopped) return 'stopped';
  if (!r.failure && !r.reported && r.answeredCalls > 0) return undefined;
  if (r.refusals.length) return 'policy-refused';
  if (r.failure?.inStub) return 'inside-stub';
  // An agent that calls a host of its own fails to connect, one that calls an unserved path gets a 404: the call is the cause.
  const astray = (message: string) =>
    r.answeredCalls === 0 && (UNREACHABLE.test(message) || (callsWentAstray && /\b404\b|NotFound|serves nothing/i.test(message)));
  if (r.reported && !r.failure && !astray(r.reported)) return 'agent-reported';
  if (r.failure && !astray(r.failure.message)) return 'agent-raised';
  if (r.answeredCalls === 0 && callsWentAstray) return 'unserved-path';
  return 'no-call';
}

const list = (names: readonly string[]) => names.join(', ');
const of = (n: number, total: number) =>
  total === 1 ? 'The rollout' : n === total ? `All ${total} rollouts` : `${n} of ${total} rollouts`;
const calls = (n: number) => `${n} call${n === 1 ? '' : 's'}`;

/** The most common entry of a list, with how often it came. */
function mostCommon<T>(items: readonly T[], key: (item: T) => string): { item: T; count: number } {
  const counts = new Map<string, { item: T; count: number }>();
  for (const item of items) {
    const k = key(item);
    const seen = counts.get(k);
    if (seen) seen.count++;
    else counts.set(k, { item, count: 1 });
  }
  return [...counts.values()].sort((a, b) => b.count - a.count)[0];
}

const STUB_ADVICE =
  "pass --python with the python of a virtual environment that has the agent's requirements (e.g. --python .venv/bin/python)";

/** "not installed for python3 and were replaced by stubs": one wording for the note and for a failure inside a stub. */
const stubbedFor = (facts: LocalRunFacts) => `not installed for ${facts.python} and were replaced by stubs`;

function stubNote(facts: LocalRunFacts): string {
  if (!facts.stubbed.length) return '';
  const are = facts.stubbed.length === 1 ? 'is' : 'are';
  return ` Also, ${list(facts.stubbed)} ${are} ${stubbedFor(facts)} that do nothing: ${STUB_ADVICE}.`;
}

/** `app.py:27: ValueError: …`, without a closing full stop so the sentence can end it. */
function raisedAt(facts: LocalRunFacts, failure: NonNullable<PlayedRollout['failure']>): string {
  const message = failure.message.replace(/\.$/, '');
  return failure.line ? `${facts.agent}:${failure.line}: ${message}` : `${facts.agent}: ${message}`;
}

/** The scripted policy's refusal: it plays only its own environments (src/emulator/chat.ts words it). */
const SCRIPT_DOES_NOT_PLAY = /scripted policy does not play this conversation/;

function stoppedByCheck(_facts: LocalRunFacts, members: readonly PlayedRollout[], total: number): string {
  const { item, count } = mostCommon(members, (r) => r.stopped!);
  const others = members.length - count;
  const rest = others
    ? ` ${others} more ${others === 1 ? 'was' : 'were'} stopped for other draws (--transcripts-out keeps each one's).`
    : '';
  const sentence = item.stopped!.charAt(0).toLowerCase() + item.stopped!.slice(1);
  return `${of(count, total)}: ${sentence}${rest} docs/limits.md says what draws on the allowance.`;
}

function policyRefused(facts: LocalRunFacts, members: readonly PlayedRollout[], total: number): string {
  const refusal = mostCommon(
    members.flatMap((r) => r.refusals),
    (m) => m,
  ).item;
  if (facts.scriptedPolicy || SCRIPT_DOES_NOT_PLAY.test(refusal))
    return `${of(members.length, total)}: the policy does not play this agent's task. The emulator's scripted policy (the default --policy emulator) plays only its own Wordle and refund-desk tasks with their own tools, and refused this conversation, so nothing here says how your agent or its tasks do: pass --policy URL, an OpenAI-compatible server with a model (vLLM at http://localhost:8000/v1, Ollama at http://localhost:11434/v1, or Bedrock's).`;
  return `${of(members.length, total)}: the policy refused their model calls ("${refusal.replace(/\.$/, '')}"). Check --policy and --model: the policy must serve the model and accept the agent’s requests.`;
}

function unservedPath(facts: LocalRunFacts, members: readonly PlayedRollout[], total: number): string {
  const shown = facts.unservedPaths.slice(0, 3).map((p) => `${p.path} (${calls(p.count)})`);
  const more = facts.unservedPaths.length > 3 ? ` and ${facts.unservedPaths.length - 3} more` : '';
  const path = facts.unservedPaths[0]?.path ?? '';
  const hint = /\/v1\/v1\//.test(path)
    ? ' The agent adds /v1 to a URL that already ends in /v1.'
    : /\/chat\/completions/.test(path) && !/\/v1\/chat\/completions/.test(path)
      ? ' Chat completions live under /v1, as in the service: base_url = metadata.endpoint + "/v1".'
      : '';
  return `${of(members.length, total)} made no model call the runtime could serve: calls arrived at ${shown.join(', ')}${more}. The runtime serves chat completions at the payload's metadata.endpoint + /v1/chat/completions, and the SDK's /complete-rollout and /update-reward at metadata.endpoint.${hint}`;
}

function insideStub(facts: LocalRunFacts, members: readonly PlayedRollout[], total: number): string {
  const { item } = mostCommon(members, (r) => raisedAt(facts, r.failure!));
  const names = facts.stubbed.length ? list(facts.stubbed) : 'packages the agent imports';
  return `${of(members.length, total)} failed inside packages that are ${stubbedFor(facts)} (${names}): ${raisedAt(facts, item.failure!)}. P${STUB_ADVICE.slice(1)}.`;
}

/** Where a reported error has a common cause outside the agent's code, the fix for it. */
function reportedAdvice(message: string): string {
  if (/credential|NoCredentials|Unable to locate|security token|sigv4|sign/i.test(message))
    return " A SigV4 bearer token (as AWS's sample agents make one) needs some AWS credentials to sign with: any key works locally (export AWS_ACCESS_KEY_ID=test AWS_SECRET_ACCESS_KEY=test), since the local runtime checks no signature; the local check adds no AWS credentials of its own to the agent's environment (docs/local-route.md).";
  if (/api[_ ]?key|OPENAI_API_KEY/i.test(message))
    return ' The client wants an API key: any value works against the local runtime (e.g. api_key="local").';
  return ' It caught this error itself and returned it instead of playing: fix its cause, or see the lines it logged.';
}

/** The last stderr lines of a rollout, quoted, when they add to the sentence. */
function stderrNote(r: PlayedRollout, shown: string): string {
  // A record line (JSON) tells the board, not the reader; long lines are cut.
  const lines = (r.stderr ?? [])
    .map((l) => l.trim())
    .filter((l) => !l.startsWith('{') && !shown.includes(l))
    .slice(-3)
    .map((l) => (l.length > 200 ? `${l.slice(0, 200)}…` : l));
  return lines.length ? ` Its stderr ended: ${lines.map((l) => `\`${l}\``).join(' · ')}.` : '';
}

function agentReported(facts: LocalRunFacts, members: readonly PlayedRollout[], total: number): string {
  const { item, count } = mostCommon(members, (r) => r.reported!);
  const others = members.length - count;
  const rest = others ? ` ${others} more reported other errors (--transcripts-out keeps each one's).` : '';
  return `${of(count, total)}: the agent reported \`${item.reported!}\`.${reportedAdvice(item.reported!)}${stderrNote(item, item.reported!)}${rest}${stubNote(facts)}`;
}

function agentRaised(facts: LocalRunFacts, members: readonly PlayedRollout[], total: number): string {
  const { item, count } = mostCommon(members, (r) => raisedAt(facts, r.failure!));
  const others = members.length - count;
  const allowList = ALLOW_LIST.test(item.failure!.message)
    ? ` That is the agent's own check refusing the local runtime's URL (${facts.runtimeUrl}): for this check, let it accept http://127.0.0.1 too (for example only when a variable you set locally says so), or read the endpoint from a variable and pass --endpoint-env VAR.`
    : '';
  const rest = others ? ` ${others} more raised other errors (--transcripts-out keeps each one's).` : '';
  return `${of(count, total)} failed: the agent raised ${raisedAt(facts, item.failure!)}.${allowList}${stderrNote(item, item.failure!.message)}${rest}${stubNote(facts)}`;
}

/** No call arrived though the agent's variable named the runtime: advice to set that variable would send the user in a circle. */
function noCallDespiteVariable(facts: LocalRunFacts, variable: string): string {
  const found = findHardCodedEndpoint(facts.agentSource);
  const are = facts.stubbed.length === 1 ? 'is' : 'are';
  const why = facts.stubbed.length
    ? `${list(facts.stubbed)} ${are} not installed for ${facts.python} and were replaced by stubs that do nothing, so no model call left the agent: ${STUB_ADVICE}`
    : `it calls another host${found ? ` (${facts.agent}:${found.line}: ${found.text})` : ''}; read the model endpoint from ${variable} or from payload["metadata"]["endpoint"]`;
  return `No model call arrived from the agent, though ${variable} named the local runtime: ${why}.`;
}

function noCall(facts: LocalRunFacts, members: readonly PlayedRollout[], total: number): string {
  const advice = facts.endpointEnv
    ? noCallDespiteVariable(facts, facts.endpointEnv)
    : ignoredEndpointAdvice(facts.agent, findHardCodedEndpoint(facts.agentSource), facts.stubbed);
  const failed = members.find((r) => r.failure);
  const sentence = failed ? `${advice} The agent raised ${raisedAt(facts, failed.failure!)}.` : advice;
  return members.length === total ? sentence : `${of(members.length, total)}: ${sentence.replace(/^No/, 'no')}`;
}

const SENTENCES: Record<DiagnosisKind, (facts: LocalRunFacts, members: readonly PlayedRollout[], total: number) => string> = {
  stopped: stoppedByCheck,
  'policy-refused': policyRefused,
  'unserved-path': unservedPath,
  'inside-stub': insideStub,
  'agent-reported': agentReported,
  'agent-raised': agentRaised,
  'no-call': noCall,
};

/** One sentence per kind of trouble, in the order of ORDER (the first that applies leads); empty when every rollout played. */
export function diagnoseLocalRun(facts: LocalRunFacts): Diagnosis[] {
  const astray = facts.unservedPaths.some((p) => p.count > 0);
  const byKind = new Map<DiagnosisKind, PlayedRollout[]>();
  for (const r of facts.rollouts) {
    const kind = rolloutTrouble(r, astray);
    if (kind) byKind.set(kind, [...(byKind.get(kind) ?? []), r]);
  }
  const total = facts.rollouts.length;
  return [...byKind]
    .sort((a, b) => ORDER.indexOf(a[0]) - ORDER.indexOf(b[0]))
    .map(([kind, members]) => ({ kind, rollouts: members.length, sentence: SENTENCES[kind](facts, members, total) }));
}
