/** What the agent and role lints report, in editor coordinates (0-based lines and characters). */
import { agentAdviceForSource } from '../environments/registry';
import { LineStarts } from '../text/lines';

export type LintSeverity = 'error' | 'warning' | 'info';

export type LintRule =
  | 'decorator-order'
  | 'missing-app'
  | 'missing-entrypoint'
  | 'handler-context'
  | 'error-status'
  | 'exception-escapes'
  | 'per-call-token'
  | 'reasoning-effort'
  | 'payload-form'
  | 'rft-handler-import'
  | 'region-fallback'
  | 'trusts-sagemaker'
  | 'missing-tag-session';

interface TextPosition {
  line: number;
  character: number;
}

export interface TextRange {
  start: TextPosition;
  end: TextPosition;
}

export interface TextEdit {
  range: TextRange;
  newText: string;
}

interface LintFix {
  title: string;
  edits: TextEdit[];
}

export interface LintFinding {
  rule: LintRule;
  severity: LintSeverity;
  message: string;
  range: TextRange;
  fix?: LintFix;
}

/** The SDK's contract for a rollout, the advice every reward finding gives (the Python lint words it the same). */
export const REWARD_CONTRACT =
  'return a reward (the lowest your task gives) for every rollout; raising or {"status": "error"} fails the trajectory, and failed trajectories cancel the training job';

/** Findings about rewards with the environment pack's own advice added (Wordle's -1.5 only for a Wordle agent). */
export function withPackAdvice(findings: LintFinding[], source: string): LintFinding[] {
  const advice = agentAdviceForSource(source)?.lintAdvice;
  if (!advice) return findings;
  return findings.map((f) =>
    f.rule === 'error-status' || f.rule === 'exception-escapes' ? { ...f, message: `${f.message} ${advice}` } : f,
  );
}

/** An expression that reads the prompt or the row whichever way the rollout was sent (the Python lint builds the same text). */
export function bothPayloadForms(key: 'instance' | 'prompt' | string, payload: string): string {
  return key === 'instance'
    ? `(${payload}.get("instance") or {"prompt": ${payload}.get("prompt")})`
    : `(${payload}.get("prompt") or (${payload}.get("instance") or {}).get("prompt"))`;
}

/** Which parser produced the findings; shown as the diagnostic source. */
export type LintEngine = 'python ast' | 'regex' | 'json';

/** Offsets as editor positions (0-based line and character), each found by binary search: a policy with thousands of findings stays linear. */
export class TextPositions {
  private readonly lines: LineStarts;

  constructor(text: string) {
    this.lines = new LineStarts(text);
  }

  positionAt(offset: number): TextPosition {
    const { line, start } = this.lines.locate(offset);
    return { line, character: offset - start };
  }

  rangeAt(offset: number, length: number): TextRange {
    return { start: this.positionAt(offset), end: this.positionAt(offset + length) };
  }
}

/** The lines of a source file, split once per lint: a fix per finding must not split the whole file again. */
export function sourceLines(text: string): string[] {
  return text.split(/\r?\n/);
}

/** Swaps two whole decorator lines (0-based, of `sourceLines`) so `@app.entrypoint` ends up outermost. */
export function decoratorSwapFix(lines: readonly string[], handlerLine: number, entrypointLine: number): LintFix {
  const whole = (line: number): TextRange => ({ start: { line, character: 0 }, end: { line, character: lines[line]?.length ?? 0 } });
  return {
    title: 'Put @app.entrypoint outermost (above @sagemaker_rft_handler)',
    edits: [
      { range: whole(handlerLine), newText: lines[entrypointLine] ?? '' },
      { range: whole(entrypointLine), newText: lines[handlerLine] ?? '' },
    ],
  };
}
