import path from 'node:path';
import { componentsText, rescoreText, roundedComponents, score, toolCallsOf, type Scenario } from '../core/reward';
import { outsideText } from '../core/text/display';
import type { Transcript } from '../core/transcript/model';
import {
  loadScenarioFile,
  previewScenarios,
  rescoreTranscripts,
  rewardFileOf,
  type OfferedScenarios,
  type ScenarioPreview,
} from '../services/rewardScenarios';
import { EXIT_CLEAN, EXIT_FINDINGS, EXIT_USAGE, type CliIO } from './command';

interface HarnessFlags {
  python: string;
  script: string;
  timeoutMs: number;
  signal: AbortSignal;
}

/** A scenario file's problem on one line: its path and message quote the file's own keys and values. */
const problemText = (p: { path: string; message: string }) => outsideText(`${p.path ? `${p.path}: ` : ''}${p.message}`, 1000);

/** Further pairs that break an invariant shown under it; the rest are counted. */
const SHOWN_BREAKS = 3;

function previewText(p: ScenarioPreview, shown: string): string {
  const where = `${path.basename(p.rewardFile)}:${p.line} ${p.target}${p.convention === 'class' ? ' (replayed call by call)' : '(task, transcript)'}`;
  const width = Math.max(8, ...p.scored.map((s) => s.name.length));
  const lines = [`${shown} \u2192 ${where}`, ''];
  for (const s of p.scored)
    lines.push(
      `  ${s.name.padEnd(width)}  ${score(s.reward).padStart(6)}${s.components ? ` ${componentsText(s.reward, s.components)}` : ''}  ${s.turns.length} turns${s.finished ? '  finished' : ''}`,
    );
  for (const [name, f] of Object.entries(p.failures))
    lines.push(`  ${name.padEnd(width)}  failed  ${f.line ? `line ${f.line}: ` : ''}${f.message}`);
  lines.push('');
  const at = `${path.basename(p.rewardFile)}:${p.rewardLine}`;
  for (const r of p.results) {
    lines.push(`  ${r.ok ? '\u2713' : `\u2717 ${at}`} ${r.name}: ${r.detail}`);
    const more = (r.breaks ?? []).slice(1);
    for (const b of more.slice(0, SHOWN_BREAKS)) lines.push(`      also ${b.detail}`);
    if (more.length > SHOWN_BREAKS) lines.push(`      … ${more.length - SHOWN_BREAKS} more (--json lists them in failures)`);
  }
  if (p.stubbed.length) lines.push('', `Not installed, replaced by stubs: ${p.stubbed.join(', ')}`);
  const kept = p.results.filter((r) => r.ok).length;
  lines.push(
    '',
    [
      ...p.scored.map((s) => `${s.name} ${score(s.reward)}`),
      `${kept === p.results.length ? '\u2713' : '\u2717'} ${kept}/${p.results.length}`,
    ].join(' \u00b7 '),
  );
  return lines.join('\n');
}

/** A tool call as one word: its one string argument (a guess), else its arguments as JSON. */
function move(call: { arguments: unknown }): string {
  const args = call.arguments;
  const strings = args && typeof args === 'object' ? Object.values(args).filter((v) => typeof v === 'string') : [];
  return typeof args === 'string' ? args : strings.length === 1 ? (strings[0] as string) : JSON.stringify(args);
}

/** `games` and `invariants`: the names `mtrl reward FILE.py --json` gave scenarios and expectations before they were one. */
function earlierNames(p: ScenarioPreview): object {
  return {
    games: p.scored.map((s: Scenario & { reward: number }) => ({ name: s.name, guesses: toolCallsOf(s).map(move), reward: s.reward })),
    invariants: p.results.map(({ name, ok, detail }) => ({ name, ok, detail })),
  };
}

function previewJson(p: ScenarioPreview, python: boolean): object {
  return {
    ...(python ? earlierNames(p) : {}),
    reward: { file: p.rewardFile, target: p.target, convention: p.convention, line: p.line, reward_line: p.rewardLine },
    scenarios: p.scored.map((s) => ({
      name: s.name,
      reward: s.reward,
      turns: s.turns.length,
      finished: s.finished ?? null,
      ...(s.components ? { components: roundedComponents(s.components) } : {}),
    })),
    // Scenarios the reward failed on, then each pair or scenario that breaks an outcome invariant.
    failures: [
      ...Object.entries(p.failures).map(([name, f]) => ({ name, ...f })),
      ...p.results.flatMap((r) =>
        (r.breaks ?? []).map((b) => ({ name: b.scenarios[0], message: b.detail, expectation: r.name, scenarios: b.scenarios })),
      ),
    ],
    expectations: p.results.map(({ name, ok, detail, scenarios }) => ({ name, ok, detail, scenarios })),
  };
}

/**
 * `mtrl reward FILE.mtrl-reward.json`, or `FILE.py` with the scenario file a pack offers for it (`offered`): scores the
 * scenarios; exit 1 when an expectation or a scenario fails.
 */
export async function runScenarioPreview(
  file: string,
  json: boolean,
  flags: HarnessFlags,
  io: CliIO,
  offered?: OfferedScenarios,
): Promise<number> {
  const { result, stderr } = await previewScenarios(offered?.path ?? path.resolve(file), { ...flags, file: offered?.file });
  if (!result.ok) {
    if (stderr.trim()) io.err(stderr.trimEnd());
    if (result.error === 'file') for (const p of result.problems) io.err(`mtrl reward: ${file}: ${problemText(p)}`);
    else
      io.err(
        `mtrl reward: ${result.rewardFile ? path.basename(result.rewardFile) : file}${'line' in result && result.line ? `:${result.line}${'column' in result && result.column ? `:${result.column}` : ''}` : ''}: ${result.message}`,
      );
    return EXIT_USAGE;
  }
  io.out(json ? JSON.stringify(previewJson(result, !!offered)) : previewText(result, file));
  return result.results.every((r) => r.ok) && !Object.keys(result.failures).length ? EXIT_CLEAN : EXIT_FINDINGS;
}

/** `mtrl reward FILE.mtrl-reward.json --rescore SOURCE`: the reward as it is now over recorded transcripts. */
export async function runRescore(
  file: string,
  transcripts: readonly Transcript[],
  source: string,
  json: boolean,
  flags: HarnessFlags,
  io: CliIO,
): Promise<number> {
  const loaded = await loadScenarioFile(path.resolve(file));
  if ('ok' in loaded) {
    for (const p of loaded.error === 'file' ? loaded.problems : []) io.err(`mtrl reward: ${file}: ${problemText(p)}`);
    return EXIT_USAGE;
  }
  const rewardFile = rewardFileOf(path.resolve(file), loaded.file.reward);
  const outcome = await rescoreTranscripts(rewardFile, loaded.file.reward, transcripts, flags);
  if ('failure' in outcome) {
    if (outcome.stderr.trim()) io.err(outcome.stderr.trimEnd());
    io.err(
      `mtrl reward: ${path.basename(rewardFile)}${'line' in outcome.failure && outcome.failure.line ? `:${outcome.failure.line}` : ''}: ${outcome.failure.message}`,
    );
    return EXIT_USAGE;
  }
  const reward = `${path.basename(rewardFile)} ${loaded.file.reward.form === 'class' ? loaded.file.reward.class : loaded.file.reward.function}`;
  io.out(json ? JSON.stringify(outcome.report) : rescoreText(outcome.report, source, reward));
  return EXIT_CLEAN;
}
