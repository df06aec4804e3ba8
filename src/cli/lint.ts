import { existsSync } from 'node:fs';
import { readFile } from 'node:fs/promises';
import { decodeFileText } from '../core/text/encoding';
import path from 'node:path';
import {
  isTrustPolicy,
  lintAgentByRegex,
  lintTrustPolicy,
  readPythonLintOutput,
  usesRftHandler,
  type LintEngine,
  type LintFinding,
} from '../core/lint';
import { runPythonLint } from '../services/python/agentLint';
import { EXIT_CLEAN, EXIT_FINDINGS, parseOptions, UsageError, type CliCommand } from './command';

const usage = `Usage: mtrl lint <file>... [--python PATH] [--no-python] [--json]

Lints agents and job roles before a training job starts:
  *.py that use sagemaker_rft_handler or import sagemaker.train.rft: the import's name, the region fallback, decorator order, BedrockAgentCoreApp, error statuses,
      escaping exceptions, bearer tokens made on every call, REASONING_EFFORT fallback
      (Python's ast through --python, default python3; the regex fallback when it cannot run)
  *.json trust policies: sagemaker.amazonaws.com instead of job.sagemaker.amazonaws.com,
      missing sts:TagSession (every trust policy named on the command line counts as a job role)

  --python     the interpreter for the ast lint (default: $MTRL_PYTHON, else python3)
  --no-python  use only the regex fallback
  --json       {"files":[{"path","engine","findings":[{"rule","severity","message","line","column"}]}]}

Exit code 1 when any file has an error or a warning; 2 on a usage or I/O error.`;

/** Where the ast lint script sits: beside the bundle (dist/python), or in the source tree when run with tsx. */
function lintScript(): string {
  const candidates = [path.join(__dirname, 'python/agent_lint.py'), path.join(__dirname, '../python/agent_lint.py')];
  const found = candidates.find((p) => existsSync(p));
  if (!found) throw new UsageError(`agent_lint.py not found next to the CLI (${candidates.join(', ')}).`);
  return found;
}

interface FileResult {
  path: string;
  engine: LintEngine | 'skipped';
  findings: LintFinding[];
  note?: string;
}

async function lintFile(file: string, text: string, python: string | undefined): Promise<FileResult> {
  if (/\.py$/i.test(file)) {
    if (!usesRftHandler(text))
      return { path: file, engine: 'skipped', findings: [], note: 'does not use sagemaker_rft_handler or sagemaker.train.rft' };
    if (python) {
      try {
        const result = readPythonLintOutput(await runPythonLint(python, lintScript(), text), text);
        if ('findings' in result) return { path: file, engine: 'python ast', findings: result.findings };
        return { path: file, engine: 'regex', findings: lintAgentByRegex(text), note: `does not parse (${result.syntaxError})` };
      } catch (error) {
        if (error instanceof UsageError) throw error;
        return {
          path: file,
          engine: 'regex',
          findings: lintAgentByRegex(text),
          note: `${python} could not run (${(error as Error).message})`,
        };
      }
    }
    return { path: file, engine: 'regex', findings: lintAgentByRegex(text) };
  }
  if (/\.json$/i.test(file)) {
    if (!isTrustPolicy(text)) return { path: file, engine: 'skipped', findings: [], note: 'not an IAM trust policy' };
    return { path: file, engine: 'json', findings: lintTrustPolicy(text) };
  }
  return { path: file, engine: 'skipped', findings: [], note: 'neither .py nor .json' };
}

export const lintCommand: CliCommand = {
  name: 'lint',
  usage,
  async run(args, io) {
    const { values, positionals } = parseOptions(args, usage, {
      options: {
        python: { type: 'string' },
        'no-python': { type: 'boolean', default: false },
        json: { type: 'boolean', default: false },
      },
      allowPositionals: true,
    });
    if (!positionals.length) throw new UsageError('name at least one .py or .json file.');
    const python = values['no-python'] ? undefined : (values.python ?? process.env.MTRL_PYTHON ?? 'python3');
    const results: FileResult[] = [];
    for (const file of positionals) {
      let bytes: Uint8Array;
      try {
        bytes = await readFile(file);
      } catch (error) {
        throw new UsageError(`cannot read ${file}: ${(error as NodeJS.ErrnoException).code ?? (error as Error).message}`);
      }
      // A file that cannot be read is never "skipped": that would pass a policy nobody checked.
      const decoded = decodeFileText(bytes);
      if ('error' in decoded) throw new UsageError(`cannot read ${file}: ${decoded.error}`);
      const { text } = decoded;
      results.push(await lintFile(file, text, python));
    }
    const failing = results.some((r) => r.findings.some((f) => f.severity !== 'info'));
    if (values.json) {
      const files = results.map((r) => ({
        path: r.path,
        engine: r.engine,
        note: r.note,
        findings: r.findings.map((f) => ({
          rule: f.rule,
          severity: f.severity,
          message: f.message,
          line: f.range.start.line + 1,
          column: f.range.start.character + 1,
        })),
      }));
      io.out(JSON.stringify({ files }, null, 2));
    } else {
      for (const r of results) {
        const head = `${r.path}: ${r.engine === 'skipped' ? `skipped, ${r.note}` : `${r.findings.length} finding(s) (${r.engine === 'json' ? 'role lint' : r.engine}${r.note ? `; ${r.note}` : ''})`}`;
        io.out(
          [
            head,
            ...r.findings.map(
              (f) => `  ${r.path}:${f.range.start.line + 1}:${f.range.start.character + 1} ${f.severity} ${f.rule}: ${f.message}`,
            ),
          ].join('\n'),
        );
      }
    }
    return failing ? EXIT_FINDINGS : EXIT_CLEAN;
  },
};
