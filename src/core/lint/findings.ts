/** What the agent and role lints report, in editor coordinates (0-based lines and characters). */
import { LineStarts } from '../text/lines';

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
