import type { Transcript } from '../transcript/model';
import { callOutput, evidence, offeredTools, textOf } from './text';
import type { ScanMark } from './types';
import { asFields } from '../text/json';

// Failures the agent's environment reports: credentials refused, a failure status instead of a reward, a tool that
// does not exist, a tool that failed.

/** 401/403 said as an HTTP status, expired or missing tokens and credentials, AWS's access errors. */
const AUTH =
  /\b(?:401|403)\b[^\n]{0,40}?(?:unauthori[sz]ed|forbidden|denied)|(?:unauthori[sz]ed|forbidden|status(?: code)?|http(?: error)?|error(?: code)?)[\s:=(]{0,3}(?:401|403)\b|\b(?:expired|invalid|missing) (?:bearer |access |api |auth(?:entication)? |security |session )?(?:token|credentials?|api key)s?\b|\b(?:token|credentials?) (?:has |have |is |are )?(?:expired|invalid|missing)\b|ExpiredToken|AccessDenied|UnrecognizedClientException|InvalidClientTokenId|NoCredentialsError|Unable to locate credentials|not authori[sz]ed to perform|authentication failed/i;

/** What the tool (or the framework that runs it) says when the model called a tool it does not offer. */
const INVALID_TOOL =
  /\bis not a valid tool\b|\b(?:unknown|invalid|unsupported|unrecognized) (?:tool|function)\b|\btool (?:named )?['"`]?[\w.-]+['"`]? (?:was )?(?:not found|does not exist|is not available)|\bno such tool\b/i;

/** A result that opens as an error: `Error: …`, `ValueError: …`, a Python traceback (not "Error codes are…"). */
const ERROR_RESULT = /^\s*(?:(?:error|exception)\s*[:!-]|[A-Z]\w*(?:Error|Exception):\s|Traceback \(most recent call last\))/i;

/** What each call said back (callOutput), per turn: read by several scanners, turned into text once. */
export type CallOutputs = readonly (readonly string[])[];

export function callOutputs(t: Transcript): CallOutputs {
  return t.turns.map((turn) => turn.toolCalls.map(callOutput));
}

export function authError(t: Transcript, outputs: CallOutputs = callOutputs(t)): ScanMark | undefined {
  for (let i = 0; i < outputs.length; i++)
    for (const out of outputs[i]) if (AUTH.test(out)) return { kind: 'auth-error', turn: i, evidence: evidence(out) };
  for (const said of [t.error, t.fields?.summary, t.fields?.error])
    if (typeof said === 'string' && AUTH.test(said)) return { kind: 'auth-error', evidence: evidence(said) };
  return undefined;
}

export function errorStatus(t: Transcript): ScanMark | undefined {
  if (t.status !== 'error') return undefined;
  const said = t.error ?? (typeof t.fields?.summary === 'string' ? t.fields.summary : 'status error');
  return { kind: 'error-status', evidence: evidence(textOf(said)) };
}

export function invalidTool(t: Transcript, outputs: CallOutputs = callOutputs(t)): ScanMark | undefined {
  const offered = offeredTools(t.fields);
  for (let i = 0; i < t.turns.length; i++) {
    const calls = t.turns[i].toolCalls;
    for (let k = 0; k < calls.length; k++) {
      if (offered && !offered.has(calls[k].name)) return { kind: 'invalid-tool', turn: i, evidence: `${calls[k].name} is not offered` };
      if (INVALID_TOOL.test(outputs[i][k])) return { kind: 'invalid-tool', turn: i, evidence: evidence(outputs[i][k]) };
    }
  }
  return undefined;
}

/** A result object that says it failed: `{error}`, `{is_error: true}` (MCP, Anthropic), `{status: "error"}` (Strands). */
function failedResult(result: unknown): boolean {
  const r = asFields(result);
  if (!r) return typeof result === 'string' && ERROR_RESULT.test(result);
  return !!r.error || r.is_error === true || r.isError === true || r.status === 'error';
}

export function toolError(t: Transcript): ScanMark | undefined {
  for (let i = 0; i < t.turns.length; i++)
    for (const call of t.turns[i].toolCalls)
      if (call.error || failedResult(call.result))
        return { kind: 'tool-error', turn: i, evidence: evidence(`${call.name}: ${callOutput(call)}`) };
  return undefined;
}
