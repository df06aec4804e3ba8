/** What the agent and role lints report, in editor coordinates (0-based lines and characters). */

export type LintSeverity = 'error' | 'warning' | 'info';

export type LintRule =
  | 'decorator-order'
  | 'missing-app'
  | 'missing-entrypoint'
  | 'error-status'
  | 'exception-escapes'
  | 'per-call-token'
  | 'reasoning-effort'
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

/** Which parser produced the findings; shown as the diagnostic source. */
export type LintEngine = 'python ast' | 'regex' | 'json';

function positionAt(text: string, offset: number): TextPosition {
  let line = 0;
  let lineStart = 0;
  for (let i = 0; i < offset && i < text.length; i++) {
    if (text[i] === '\n') {
      line++;
      lineStart = i + 1;
    }
  }
  return { line, character: offset - lineStart };
}

export function rangeAt(text: string, offset: number, length: number): TextRange {
  return { start: positionAt(text, offset), end: positionAt(text, offset + length) };
}

/** Swaps two whole decorator lines (0-based) so `@app.entrypoint` ends up outermost. */
export function decoratorSwapFix(text: string, handlerLine: number, entrypointLine: number): LintFix {
  const lines = text.split(/\r?\n/);
  const whole = (line: number): TextRange => ({ start: { line, character: 0 }, end: { line, character: lines[line]?.length ?? 0 } });
  return {
    title: 'Put @app.entrypoint outermost (above @sagemaker_rft_handler)',
    edits: [
      { range: whole(handlerLine), newText: lines[entrypointLine] ?? '' },
      { range: whole(entrypointLine), newText: lines[handlerLine] ?? '' },
    ],
  };
}
