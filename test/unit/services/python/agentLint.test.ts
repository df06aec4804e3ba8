import { strict as assert } from 'node:assert';
import { readFileSync } from 'node:fs';
import path from 'node:path';
import { lintAgentByRegex, readPythonLintOutput, type LintFinding, type TextEdit } from '../../../../src/core/lint';
import { runPythonLint } from '../../../../src/services/python/agentLint';
import { python } from '../../python';

const root = path.resolve(__dirname, '../../../..');
const fixture = (name: string) => readFileSync(path.join(root, 'test/fixtures/lint', name), 'utf8');
const SCRIPT = path.join(root, 'src/python/agent_lint.py');

async function byPython(text: string): Promise<LintFinding[]> {
  const result = readPythonLintOutput(await runPythonLint(python, SCRIPT, text), text);
  if ('syntaxError' in result) throw new Error(result.syntaxError);
  return result.findings;
}

/** Applies non-overlapping line edits, as the editor would. */
function apply(text: string, edits: TextEdit[]): string {
  const lines = text.split('\n');
  const offset = (p: { line: number; character: number }) => lines.slice(0, p.line).reduce((n, l) => n + l.length + 1, 0) + p.character;
  return [...edits]
    .sort((a, b) => offset(b.range.start) - offset(a.range.start))
    .reduce((t, e) => t.slice(0, offset(e.range.start)) + e.newText + t.slice(offset(e.range.end)), text);
}

const engines: [string, (text: string) => Promise<LintFinding[]>][] = [
  ['python ast', byPython],
  ['regex', async (text) => lintAgentByRegex(text)],
];

for (const [engine, lint] of engines) {
  describe(`agent lint (${engine})`, () => {
    const rules = async (name: string) => (await lint(fixture(name))).map((f) => f.rule).sort();

    it('finds nothing in a good agent', async () => {
      assert.deepEqual(await rules('good_agent.py'), []);
    });

    it('flags swapped decorators as an error, and its fix puts @app.entrypoint outermost', async () => {
      const text = fixture('swapped_decorators.py');
      const [finding] = await lint(text);
      assert.equal(finding.rule, 'decorator-order');
      assert.equal(finding.severity, 'error');
      assert.equal(finding.range.start.line, 9);
      const fixed = apply(text, finding.fix!.edits);
      assert.match(fixed, /@app\.entrypoint\n@sagemaker_rft_handler\ndef handle_rollout/);
      assert.deepEqual(
        (await lint(fixed)).map((f) => f.rule),
        [],
      );
    });

    it('flags an entrypoint taking (payload, context) under @sagemaker_rft_handler, quoting the TypeError every invocation raises', async () => {
      const findings = await lint(fixture('handler_context.py'));
      const arity = findings.find((f) => f.rule === 'handler-context');
      assert.ok(arity, JSON.stringify(findings.map((f) => f.rule)));
      assert.equal(arity.severity, 'error');
      assert.match(arity.message, /`handle_rollout\(payload, context\)`/);
      assert.match(arity.message, /TypeError: sync_wrapper\(\) takes 1 positional argument but 2 were given/);
      assert.equal(arity.range.start.line, 8);
      // One parameter, as the good agent has it, is fine.
      assert.ok(!(await lint(fixture('good_agent.py'))).some((f) => f.rule === 'handler-context'));
    });

    it('warns about an error status, an escaping exception and a REASONING_EFFORT with no fallback', async () => {
      const findings = await lint(fixture('error_status.py'));
      assert.deepEqual(findings.map((f) => f.rule).sort(), ['error-status', 'exception-escapes', 'payload-form', 'reasoning-effort']);
      const status = findings.find((f) => f.rule === 'error-status')!;
      assert.equal(status.severity, 'warning');
      // The advice is the SDK contract; Wordle's -1.5 only for a Wordle agent.
      assert.match(status.message, /return a reward .* for every rollout; raising or \{"status": "error"\} fails the trajectory/);
      assert.doesNotMatch(status.message, /-1\.5/);
      assert.equal(status.range.start.line, 14);
      assert.equal(findings.find((f) => f.rule === 'reasoning-effort')!.severity, 'info');
    });

    it('warns about a bearer token made on every call, and an invalid REASONING_EFFORT fallback', async () => {
      const findings = await lint(fixture('per_call_token.py'));
      const tokens = findings.filter((f) => f.rule === 'per-call-token');
      assert.ok(tokens.length >= 1);
      assert.ok(tokens.every((t) => t.range.start.line === 18 || t.range.start.line === 19));
      assert.match(findings.find((f) => f.rule === 'reasoning-effort')!.message, /"extreme" is not low, medium or high/);
    });

    it('accepts a router layout: an @app.entrypoint function that calls the handler', async () => {
      assert.deepEqual(await rules('router_agent.py'), []);
    });

    it('payload-form: a handler reading only payload["prompt"] gets a fix that reads both forms', async () => {
      const text = fixture('error_status.py');
      const finding = (await lint(text)).find((f) => f.rule === 'payload-form')!;
      assert.equal(finding.severity, 'warning');
      assert.match(finding.message, /only `payload\["prompt"\]`/);
      const fixed = apply(text, finding.fix!.edits);
      assert.match(fixed, /answer = \(payload\.get\("prompt"\) or \(payload\.get\("instance"\) or \{\}\)\.get\("prompt"\)\)\n/);
      assert.ok(!(await lint(fixed)).some((f) => f.rule === 'payload-form'));
    });

    it("adds Wordle's -1.5 only to a Wordle agent", async () => {
      const wordle = fixture('error_status.py').replace('def play(answer):', 'def play(answer):\n    guess_word = None');
      const status = (await lint(wordle)).find((f) => f.rule === 'error-status')!;
      assert.match(status.message, /Wordle sample returns -1\.5/);
      const other = (await lint(fixture('error_status.py'))).find((f) => f.rule === 'error-status')!;
      assert.doesNotMatch(other.message, /-1\.5/);
    });

    it('flags a handler with no BedrockAgentCoreApp and no @app.entrypoint', async () => {
      assert.deepEqual(await rules('no_app.py'), ['missing-app', 'missing-entrypoint']);
    });
  });
}

describe('agent lint (python ast) follows calls', () => {
  it('into helper methods: a bearer token made on every rollout inside a helper; the entrypoint still routes', async () => {
    const findings = await byPython(fixture('router_agent_helper_token.py'));
    assert.deepEqual(findings.map((f) => f.rule).sort(), ['payload-form', 'per-call-token']);
    const token = findings.find((f) => f.rule === 'per-call-token')!;
    assert.equal(token.range.start.line, 16);
    assert.match(token.message, /`generate_token\(\)` runs on every rollout/);
  });
});

describe('agent lint (python ast) on broken source', () => {
  it('reports the syntax error instead of findings, so the editor can fall back to the regex lint', () => {
    return runPythonLint(python, SCRIPT, 'def broken(:\n').then((out) => {
      const result = readPythonLintOutput(out, 'def broken(:\n');
      assert.ok('syntaxError' in result && /line 1/.test(result.syntaxError));
    });
  });

  it('rejects when the interpreter does not exist', async () => {
    await assert.rejects(runPythonLint('/nonexistent/python3', SCRIPT, 'x = 1\n'));
  });
});
