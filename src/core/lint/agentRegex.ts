import {
  bothPayloadForms,
  decoratorSwapFix,
  REWARD_CONTRACT,
  sourceLines,
  withPackAdvice,
  type LintFinding,
  type TextRange,
} from './findings';
import { lintSdkImports } from './sdkImports';

// The fallback when no Python runs: line patterns, so it sees less than the ast lint (no call graph, no nested returns).

const HANDLER_DECORATOR = /^\s*@(?:[\w.]+\.)?sagemaker_rft_handler\b/;
const ENTRYPOINT = /^\s*@\w+\.entrypoint\b/;
const APP = /^(\w+)\s*=\s*(?:[\w.]+\.)?BedrockAgentCoreApp\s*\(/m;
const DEF = /^(\s*)(async\s+)?def\s+(\w+)/;
/** Two positional parameters on the def line: `def f(payload, context)`. */
const TWO_PARAMETERS = /def\s+\w+\s*\(\s*(\w+)\s*(?::[^,]*)?,\s*(\w+)/;
const ERROR_STATUS = /\breturn\b.*["']status["']\s*:\s*["']([^"']*(?:error|fail)[^"']*)["']/i;
const TOKEN_CALL =
  /\b((?:boto3\.(?:session\.)?Session|botocore\.session\.get_session|\w*(?:generate|get|make|new|create|sign|fetch)\w*(?:bearer|token)\w*))\s*\(/i;
const BROAD_EXCEPT = /^\s*except\s*(?:\(?\s*(?:Exception|BaseException)\b[^:]*)?:/;
const EFFORT_SUBSCRIPT = /environ\s*\[\s*["']REASONING_EFFORT["']\s*\]/;
const EFFORT_GET = /(?:environ\.get|getenv)\s*\(\s*["']REASONING_EFFORT["']\s*(?:,\s*["']([^"']*)["'])?\s*\)/;

const indent = (line: string) => /^\s*/.exec(line)![0].length;

function lineRange(lines: string[], line: number, from = indent(lines[line] ?? '')): TextRange {
  return { start: { line, character: from }, end: { line, character: (lines[line] ?? '').trimEnd().length } };
}

/** The agent lint by line patterns, for machines with no Python. */
export function lintAgentByRegex(text: string): LintFinding[] {
  const lines = sourceLines(text);
  const out: LintFinding[] = [];
  const hasApp = APP.test(text);

  lines.forEach((line, i) => {
    if (!HANDLER_DECORATOR.test(line)) return;
    // The decorator block around this line, and the def it decorates.
    let first = i;
    while (first > 0 && /^\s*@/.test(lines[first - 1])) first--;
    let defLine = i + 1;
    while (defLine < lines.length && /^\s*@/.test(lines[defLine])) defLine++;
    const def = DEF.exec(lines[defLine] ?? '');
    const block = lines.slice(first, defLine).map((l, k) => ({ l, k: first + k }));
    const entry = block.find((b) => ENTRYPOINT.test(b.l));
    if (!hasApp)
      out.push({
        rule: 'missing-app',
        severity: 'error',
        message:
          'No `app = BedrockAgentCoreApp()` in this file: without it no HTTP server starts and every invocation times out after 30 s.',
        range: lineRange(lines, i),
      });
    if (!entry && !(def && routedFromEntrypoint(lines, def[3], defLine))) {
      out.push({
        rule: 'missing-entrypoint',
        severity: 'error',
        message: `\`${def?.[3] ?? 'The handler'}\` has \`@sagemaker_rft_handler\` but no \`@app.entrypoint\`: every invocation times out after 30 s. Add \`@app.entrypoint\` as the outermost decorator.`,
        range: lineRange(lines, i),
      });
    } else if (entry && entry.k > i) {
      out.push({
        rule: 'decorator-order',
        severity: 'error',
        message:
          '`@app.entrypoint` must be the outermost decorator, above `@sagemaker_rft_handler`: swapped, every invocation times out after 30 s.',
        range: lineRange(lines, i),
        fix: decoratorSwapFix(lines, i, entry.k),
      });
    }
    if (!def) return;
    const params = TWO_PARAMETERS.exec(lines[defLine]);
    if (params && !params[1].startsWith('*') && params[2] !== 'self')
      out.push({
        rule: 'handler-context',
        severity: 'error',
        message: `\`${def[3]}(${params[1]}, ${params[2]})\` under \`@sagemaker_rft_handler\` fails every invocation with \`TypeError: ${def[2] ? 'async_wrapper' : 'sync_wrapper'}() takes 1 positional argument but 2 were given\`: the SDK's wrapper takes the payload alone, and AgentCore passes a context to an entrypoint that declares one. Take \`payload\` only.`,
        range: lineRange(lines, defLine),
      });
    const bodyIndent = def[1].length;
    let end = defLine + 1;
    while (end < lines.length && (lines[end].trim() === '' || indent(lines[end]) > bodyIndent)) end++;
    const body = lines.slice(defLine + 1, end).map((l, k) => ({ l, k: defLine + 1 + k }));
    const firstLevel = body.find((b) => b.l.trim())?.l;
    const level = firstLevel ? indent(firstLevel) : bodyIndent + 4;
    const guarded = body.some((b) => indent(b.l) === level && BROAD_EXCEPT.test(b.l));
    if (!guarded) {
      out.push({
        rule: 'exception-escapes',
        severity: 'warning',
        message: `Exceptions can escape \`${def[3]}\`: wrap the rollout in \`try: … except Exception:\`. Per the SDK contract, ${REWARD_CONTRACT}.`,
        range: lineRange(lines, defLine),
      });
    }
    const payloadForm = payloadFormFinding(lines[defLine], body);
    if (payloadForm) out.push(payloadForm);
    for (const b of body) {
      const status = ERROR_STATUS.exec(b.l);
      if (status)
        out.push({
          rule: 'error-status',
          severity: 'warning',
          message: `The handler returns status "${status[1]}": the service records a failed trajectory. Per the SDK contract, ${REWARD_CONTRACT}.`,
          range: lineRange(lines, b.k),
        });
      const token = TOKEN_CALL.exec(b.l);
      if (token && !/cache/i.test(token[1])) {
        const at = b.l.indexOf(token[1]);
        out.push({
          rule: 'per-call-token',
          severity: 'warning',
          message: `\`${token[1]}()\` runs on every rollout with no cache: at 32 parallel rollouts this starves the credential provider. Keep one self-refreshing session, cache the bearer token ~5 min, and re-sign on 403.`,
          range: { start: { line: b.k, character: at }, end: { line: b.k, character: at + token[1].length } },
        });
      }
    }
  });

  lines.forEach((line, i) => {
    const subscript = EFFORT_SUBSCRIPT.exec(line);
    if (subscript) {
      out.push({
        rule: 'reasoning-effort',
        severity: 'info',
        message:
          'REASONING_EFFORT is read without a fallback: a runtime deployed without it fails every rollout. Use os.environ.get("REASONING_EFFORT", "medium").',
        range: { start: { line: i, character: subscript.index }, end: { line: i, character: subscript.index + subscript[0].length } },
      });
    }
    const get = EFFORT_GET.exec(line);
    if (!get) return;
    const range = { start: { line: i, character: get.index }, end: { line: i, character: get.index + get[0].length } };
    if (get[1] === undefined)
      out.push({
        rule: 'reasoning-effort',
        severity: 'info',
        message: 'REASONING_EFFORT has no fallback: give one, e.g. os.environ.get("REASONING_EFFORT", "medium").',
        range,
      });
    else if (!['low', 'medium', 'high'].includes(get[1].trim().toLowerCase()))
      out.push({
        rule: 'reasoning-effort',
        severity: 'info',
        message: `REASONING_EFFORT fallback "${get[1]}" is not low, medium or high.`,
        range,
      });
  });
  return withPackAdvice([...out, ...lintSdkImports(text)], text);
}

/** The SDK sends the row as `instance`, the public Wordle sample reads top-level `prompt`: a handler reading only one gets a fix that reads both. */
function payloadFormFinding(defText: string, body: { l: string; k: number }[]): LintFinding | undefined {
  const param = /def\s+\w+\s*\(\s*(?:self\s*,\s*)?(\w+)/.exec(defText)?.[1];
  if (!param) return undefined;
  const read = new RegExp(`\\b${param}(?:\\[\\s*["'](instance|prompt)["']\\s*\\]|\\.get\\(\\s*["'](instance|prompt)["'][^)]*\\))`, 'g');
  const reads = body.flatMap((b) => [...b.l.matchAll(read)].map((m) => ({ m, k: b.k, key: m[1] ?? m[2] })));
  if (!reads.length || reads.some((r) => r.key !== reads[0].key)) return undefined;
  const { m, k, key } = reads[0];
  const range = { start: { line: k, character: m.index }, end: { line: k, character: m.index + m[0].length } };
  const [other, source] = key === 'instance' ? ['prompt', 'the SDK contract'] : ['instance', 'the public Wordle sample'];
  return {
    rule: 'payload-form',
    severity: 'warning',
    message: `The agent reads only \`payload["${key}"]\` (${source}); a rollout sent the other way carries \`${other}\` instead. Read both.`,
    range,
    fix: { title: 'Read both payload["instance"] and payload["prompt"]', edits: [{ range, newText: bothPayloadForms(key, param) }] },
  };
}

/** Whether an `@app.entrypoint` function elsewhere in the file calls the handler by name (a router layout). */
function routedFromEntrypoint(lines: string[], name: string, defLine: number): boolean {
  const call = new RegExp(`\\b${name}\\s*\\(`);
  const entries = lines.flatMap((l, i) => (ENTRYPOINT.test(l) ? [i] : []));
  return entries.some((e) => {
    let d = e + 1;
    while (d < lines.length && /^\s*@/.test(lines[d])) d++;
    const head = DEF.exec(lines[d] ?? '');
    if (!head || d === defLine) return false;
    let end = d + 1;
    while (end < lines.length && (lines[end].trim() === '' || indent(lines[end]) > head[1].length)) end++;
    return lines.slice(d + 1, end).some((l) => call.test(l));
  });
}
