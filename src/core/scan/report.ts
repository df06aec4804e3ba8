import type { ScanFinding, ScanResult } from './types';

const IDS_SHOWN = 5;

const percent = (share: number) => `${(share * 100).toFixed(share < 0.1 ? 1 : 0)} %`;

function thresholdText(threshold: number): string {
  return threshold === 0 ? 'any rollout' : `above ${percent(threshold)}`;
}

/** Whether the marked rollouts score below their groups, and by how much (the advantage GRPO gives them). */
export function advantageText(meanAdvantage: number | null): string {
  if (meanAdvantage === null) return 'no advantage known (no reward or group)';
  const a = meanAdvantage.toFixed(2);
  return meanAdvantage < -0.005
    ? `below their groups (mean advantage ${a})`
    : meanAdvantage > 0.005
      ? `above their groups (mean advantage ${a})`
      : 'level with their groups (mean advantage 0)';
}

function findingLines(f: ScanFinding): string[] {
  const mark = f.above ? '✗' : '·';
  const lines = [
    `${mark} ${f.kind}: ${f.rollouts.toLocaleString('en')} rollouts (${percent(f.share)}; fails at ${thresholdText(f.threshold)}), ${advantageText(f.meanAdvantage)}`,
  ];
  if (f.trend) lines.push(`    ${f.trend}`);
  const where = f.example.turn === undefined ? '' : ` turn ${f.example.turn + 1}`;
  lines.push(`    e.g. ${f.example.id}${where}${f.example.evidence ? `: ${f.example.evidence}` : ''}`);
  const more = f.ids.length > IDS_SHOWN ? ` … (+${(f.ids.length - IDS_SHOWN).toLocaleString('en')})` : '';
  lines.push(`    ids: ${f.ids.slice(0, IDS_SHOWN).join(', ')}${more}`);
  return lines;
}

/** The scan in words, for the terminal. */
export function scanText(result: ScanResult, source: string): string {
  const failing = result.findings.filter((f) => f.above).length;
  const head = `Scanned ${result.scanned.toLocaleString('en')} rollouts of ${source}: `;
  if (!result.findings.length) return `${head}nothing found.`;
  const kinds = `${result.findings.length} kind${result.findings.length === 1 ? '' : 's'} found`;
  return [
    `${head}${kinds}, ${failing} past ${failing === 1 ? 'its' : 'their'} threshold.`,
    '',
    ...result.findings.flatMap(findingLines),
  ].join('\n');
}

/** What `--json` prints: the findings as the issue's scripts read them. */
export function scanJson(result: ScanResult): Record<string, unknown> {
  return { scanned: result.scanned, findings: result.findings };
}
