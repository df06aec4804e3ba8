import { readFile } from 'node:fs/promises';
import path from 'node:path';
import { score, type RescoreReport } from '../core/reward';
import { transcriptsFromJsonLines } from '../core/transcript/jsonLines';
import type { Transcript } from '../core/transcript/model';
import { loadScenarioFile, previewScenarios, rescoreTranscripts, rewardFileOf, type ScenarioPreview } from '../services/rewardScenarios';
import { EXIT_CLEAN, EXIT_FINDINGS, EXIT_USAGE, UsageError, type CliIO } from './command';

interface HarnessFlags {
  python: string;
  script: string;
  timeoutMs: number;
  signal: AbortSignal;
}

const pct = (share: number | null) => (share === null ? 'n/a' : `${(share * 100).toFixed(1)} %`);
const fixed = (x: number | null, digits = 3) => (x === null ? 'n/a' : x.toFixed(digits));

function previewText(p: ScenarioPreview, shown: string): string {
  const where = `${path.basename(p.rewardFile)}:${p.line} ${p.target}${p.convention === 'class' ? ' (replayed call by call)' : '(task, transcript)'}`;
  const width = Math.max(8, ...p.scored.map((s) => s.name.length));
  const lines = [`${shown} \u2192 ${where}`, ''];
  for (const s of p.scored)
    lines.push(`  ${s.name.padEnd(width)}  ${score(s.reward).padStart(6)}  ${s.turns.length} turns${s.finished ? '  finished' : ''}`);
  for (const [name, f] of Object.entries(p.failures))
    lines.push(`  ${name.padEnd(width)}  failed  ${f.line ? `line ${f.line}: ` : ''}${f.message}`);
  lines.push('');
  const at = `${path.basename(p.rewardFile)}:${p.rewardLine}`;
  for (const r of p.results) lines.push(`  ${r.ok ? '\u2713' : `\u2717 ${at}`} ${r.name}: ${r.detail}`);
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

function previewJson(p: ScenarioPreview): object {
  return {
    reward: { file: p.rewardFile, target: p.target, convention: p.convention, line: p.line, reward_line: p.rewardLine },
    scenarios: p.scored.map((s) => ({ name: s.name, reward: s.reward, turns: s.turns.length, finished: s.finished ?? null })),
    failures: Object.entries(p.failures).map(([name, f]) => ({ name, ...f })),
    expectations: p.results.map(({ name, ok, detail, scenarios }) => ({ name, ok, detail, scenarios })),
  };
}

/** `mtrl reward FILE.mtrl-reward.json`: scores the scenarios; exit 1 when an expectation or a scenario fails. */
export async function runScenarioPreview(file: string, json: boolean, flags: HarnessFlags, io: CliIO): Promise<number> {
  const { result, stderr } = await previewScenarios(path.resolve(file), flags);
  if (!result.ok) {
    if (stderr.trim()) io.err(stderr.trimEnd());
    if (result.error === 'file')
      for (const p of result.problems) io.err(`mtrl reward: ${file}: ${p.path ? `${p.path}: ` : ''}${p.message}`);
    else
      io.err(
        `mtrl reward: ${result.rewardFile ? path.basename(result.rewardFile) : file}${'line' in result && result.line ? `:${result.line}` : ''}: ${result.message}`,
      );
    return EXIT_USAGE;
  }
  io.out(json ? JSON.stringify(previewJson(result)) : previewText(result, file));
  return result.results.every((r) => r.ok) && !Object.keys(result.failures).length ? EXIT_CLEAN : EXIT_FINDINGS;
}

/** The transcripts of a JSON Lines file, or a usage error naming the first line that is not one. */
export async function readTranscriptFile(source: string): Promise<Transcript[]> {
  let text: string;
  try {
    text = await readFile(source, 'utf8');
  } catch (error) {
    throw new UsageError(`cannot read ${source}: ${(error as Error).message}`);
  }
  const { transcripts, problem } = transcriptsFromJsonLines(text);
  if (problem) throw new UsageError(`${source}:${problem.line} ${problem.message}; give the output of mtrl rollouts --transcripts`);
  return transcripts;
}

function rescoreText(r: RescoreReport, source: string, reward: string): string {
  const lines = [
    `What-if over ${r.rollouts.toLocaleString('en')} rollouts from ${source} with ${reward}`,
    `  compared ${r.compared.toLocaleString('en')} \u00b7 could not be re-scored ${r.unreplayable.length} \u00b7 no recorded reward ${r.unrecorded}`,
    `  rank correlation (Spearman)   ${fixed(r.rankCorrelation, 2)}`,
    `  zero-advantage groups         before ${pct(r.before.zeroAdvantageShare)} (${r.before.zeroAdvantageGroups}/${r.before.groups})   after ${pct(r.after.zeroAdvantageShare)} (${r.after.zeroAdvantageGroups}/${r.after.groups})`,
    `  mean within-group spread      before ${fixed(r.before.meanWithinGroupSpread)}   after ${fixed(r.after.meanWithinGroupSpread)}`,
  ];
  if (r.flips.length) {
    lines.push('', '  rollouts whose place in their group moved most:');
    for (const f of r.flips)
      lines.push(`    ${f.id}  ${score(f.recorded)} \u2192 ${score(f.rescored)}  rank ${f.rankBefore} \u2192 ${f.rankAfter}`);
  }
  if (r.unreplayable.length) {
    lines.push('', '  could not be re-scored:');
    for (const u of r.unreplayable.slice(0, 20)) lines.push(`    ${u.id}: ${u.line ? `line ${u.line}: ` : ''}${u.error}`);
    if (r.unreplayable.length > 20) lines.push(`    … and ${r.unreplayable.length - 20} more (--json lists all)`);
  }
  return lines.join('\n');
}

/** `mtrl reward FILE.mtrl-reward.json --rescore SOURCE`: the reward as it is now over recorded transcripts. */
export async function runRescore(file: string, source: string, json: boolean, flags: HarnessFlags, io: CliIO): Promise<number> {
  const loaded = await loadScenarioFile(path.resolve(file));
  if ('ok' in loaded) {
    for (const p of loaded.error === 'file' ? loaded.problems : [])
      io.err(`mtrl reward: ${file}: ${p.path ? `${p.path}: ` : ''}${p.message}`);
    return EXIT_USAGE;
  }
  const transcripts = await readTranscriptFile(source);
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
