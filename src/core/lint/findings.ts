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

/** Where each line of a text starts, so an offset becomes a position by binary search rather than a scan from the start (a policy with thousands of findings stays linear). */
export class LineStarts {
  private readonly starts = [0];

  constructor(text: string) {
    for (let i = text.indexOf('\n'); i !== -1; i = text.indexOf('\n', i + 1)) this.starts.push(i + 1);
  }

  positionAt(offset: number): TextPosition {
    let low = 0;
    let high = this.starts.length - 1;
    while (low < high) {
      const mid = (low + high + 1) >> 1;
      if (this.starts[mid] <= offset) low = mid;
      else high = mid - 1;
    }
    return { line: low, character: offset - this.starts[low] };
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
