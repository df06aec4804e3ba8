import { strict as assert } from 'node:assert';
import { readFileSync } from 'node:fs';
import path from 'node:path';
import { lintAgentByRegex, readPythonLintOutput } from '../../../../src/core/lint';

const swapped = readFileSync(path.resolve(__dirname, '../../../fixtures/lint/swapped_decorators.py'), 'utf8');

/** The fixture's handler block, `copies` times over: what the fuzzer grew into a 1 MB file that made the lint quadratic. */
function manyHandlers(copies: number): { text: string; handlerLines: number[] } {
  const head = swapped.slice(0, swapped.indexOf('@sagemaker_rft_handler'));
  const block = swapped.slice(swapped.indexOf('@sagemaker_rft_handler'), swapped.indexOf('if __name__'));
  const text = head + block.repeat(copies);
  const lines = text.split('\n');
  return { text, handlerLines: lines.flatMap((l, i) => (l === '@sagemaker_rft_handler' ? [i] : [])) };
}

describe('agent lint by line patterns', () => {
  it('a file with thousands of swapped handlers: one finding per handler, each fix swapping that handler’s own two lines', () => {
    const { text, handlerLines } = manyHandlers(3000);
    const findings = lintAgentByRegex(text).filter((f) => f.rule === 'decorator-order');
    assert.equal(findings.length, 3000);
    findings.forEach((f, n) => {
      const line = handlerLines[n];
      assert.deepEqual(
        f.fix?.edits.map((e) => [e.range.start.line, e.range.end.character, e.newText]),
        [
          [line, '@sagemaker_rft_handler'.length, '@app.entrypoint'],
          [line + 1, '@app.entrypoint'.length, '@sagemaker_rft_handler'],
        ],
      );
    });
  });

  it("the Python lint's decorator-order findings get the same fix from the lines of the source", () => {
    const { text, handlerLines } = manyHandlers(2);
    const stdout = JSON.stringify({
      findings: handlerLines.map((line) => ({
        rule: 'decorator-order',
        severity: 'error',
        message: 'swapped',
        line: line + 1,
        column: 0,
        endLine: line + 1,
        endColumn: 22,
        data: { handlerLine: line + 1, entrypointLine: line + 2 },
      })),
    });
    const result = readPythonLintOutput(stdout, text);
    assert.ok('findings' in result);
    assert.deepEqual(
      result.findings.map((f) => f.fix?.edits.map((e) => `${e.range.start.line}:${e.newText}`)),
      handlerLines.map((line) => [`${line}:@app.entrypoint`, `${line + 1}:@sagemaker_rft_handler`]),
    );
  });
});
