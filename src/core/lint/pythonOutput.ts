import {
  bothPayloadForms,
  decoratorSwapFix,
  sourceLines,
  withPackAdvice,
  type LintFinding,
  type LintRule,
  type LintSeverity,
} from './findings';
import { lintSdkImports } from './sdkImports';

/** One finding as `src/python/agent_lint.py` prints it: 1-based lines, 0-based columns (the ast module's). */
interface PythonFinding {
  rule: LintRule;
  severity: LintSeverity;
  message: string;
  line: number;
  column: number;
  endLine: number;
  endColumn: number;
  data?: { handlerLine?: number; entrypointLine?: number; key?: string; payload?: string };
}

type PythonLintOutput = { findings: PythonFinding[] } | { syntaxError: { message: string; line: number } };

/** The agent lint's findings from the Python script's JSON output, or the syntax error that stopped it. */
export function readPythonLintOutput(stdout: string, source: string): { findings: LintFinding[] } | { syntaxError: string } {
  const parsed = JSON.parse(stdout) as PythonLintOutput;
  if ('syntaxError' in parsed) return { syntaxError: `line ${parsed.syntaxError.line}: ${parsed.syntaxError.message}` };
  const lines = sourceLines(source);
  return {
    findings: withPackAdvice(
      parsed.findings
        .map((f) => {
          const finding: LintFinding = {
            rule: f.rule,
            severity: f.severity,
            message: f.message,
            range: { start: { line: f.line - 1, character: f.column }, end: { line: f.endLine - 1, character: f.endColumn } },
          };
          if (f.rule === 'decorator-order' && f.data?.handlerLine && f.data.entrypointLine) {
            finding.fix = decoratorSwapFix(lines, f.data.handlerLine - 1, f.data.entrypointLine - 1);
          }
          if (f.rule === 'payload-form' && f.data?.key && f.data.payload) {
            const newText = bothPayloadForms(f.data.key, f.data.payload);
            finding.fix = { title: 'Read both payload["instance"] and payload["prompt"]', edits: [{ range: finding.range, newText }] };
          }
          return finding;
        })
        .concat(lintSdkImports(source)),
      source,
    ),
  };
}
