import { outsideText } from '../text/display';
import { score } from './scoreText';
import { resultsNotSeenWarning } from '../transcript/resultsNotSeen';
import type { RescoreReport } from './rescore';

const pct = (share: number | null) => (share === null ? 'n/a' : `${(share * 100).toFixed(1)} %`);
const fixed = (x: number | null, digits = 3) => (x === null ? 'n/a' : x.toFixed(digits));

/** The what-if report as text: the same in the terminal (`mtrl reward --rescore`) and in the editor (from the board). */
export function rescoreText(r: RescoreReport, source: string, reward: string): string {
  const lines = [
    `What-if over ${r.rollouts.toLocaleString('en')} rollouts from ${source} with ${reward}`,
    `  compared ${r.compared.toLocaleString('en')} \u00b7 could not be re-scored ${r.unreplayable.length} \u00b7 no recorded reward ${r.unrecorded}`,
    `  rank correlation (Spearman)   ${fixed(r.rankCorrelation, 2)}`,
    `  zero-advantage groups         before ${pct(r.before.zeroAdvantageShare)} (${r.before.zeroAdvantageGroups}/${r.before.groups})   after ${pct(r.after.zeroAdvantageShare)} (${r.after.zeroAdvantageGroups}/${r.after.groups})`,
    `  mean within-group spread      before ${fixed(r.before.meanWithinGroupSpread)}   after ${fixed(r.after.meanWithinGroupSpread)}`,
  ];
  if (r.resultsNotSeen) lines.push(`  ! ${resultsNotSeenWarning(r.resultsNotSeen)}`);
  if (r.flips.length) {
    lines.push('', '  rollouts whose place in their group moved most:');
    for (const f of r.flips)
      lines.push(
        `    ${outsideText(f.id, 120)}  ${score(f.recorded)} \u2192 ${score(f.rescored)}  rank ${f.rankBefore} \u2192 ${f.rankAfter}${f.changed ? `  ${outsideText(f.changed.name, 60)} ${f.changed.before !== undefined ? `${score(f.changed.before)} \u2192 ` : ''}${score(f.changed.after)}` : ''}`,
      );
  }
  if (r.unreplayable.length) {
    lines.push('', '  could not be re-scored:');
    for (const u of r.unreplayable.slice(0, 20))
      lines.push(`    ${outsideText(u.id, 120)}: ${u.line ? `line ${u.line}: ` : ''}${outsideText(u.error)}`);
    if (r.unreplayable.length > 20) lines.push(`    … and ${r.unreplayable.length - 20} more (--json lists all)`);
  }
  return lines.join('\n');
}
