import { followsRewardRule, quotedValue, REWARD_RULE } from '../numberRules';
import { isFields, type Fields } from '../text/json';

// A kept check is read back from a file anyone may have edited: every figure a view or `mtrl signal --check` prints is
// checked here, so one damaged file is skipped with a sentence instead of a stack trace hiding the valid checks.

const STATUSES = new Set(['running', 'done', 'failed']);

const isCount = (v: unknown) => typeof v === 'number' && Number.isInteger(v) && v >= 0 && v <= Number.MAX_SAFE_INTEGER;

/** The first field of `value` (named by path) that `ok` refuses, with its value. */
function firstBad(value: Fields, paths: string[], ok: (v: unknown) => boolean, optional = false): string | undefined {
  for (const path of paths) {
    const v = path.split('.').reduce<unknown>((o, k) => (isFields(o) ? o[k] : undefined), value);
    if (optional && (v === undefined || v === null)) continue;
    if (!ok(v)) return `${path} is ${v === undefined ? 'missing' : quotedValue(v)}`;
  }
  return undefined;
}

/** Why a kept report's spread per component (optional) cannot be shown, or undefined. */
function componentsProblem(components: unknown): string | undefined {
  if (components === undefined) return undefined;
  if (!Array.isArray(components)) return 'report.components is not a list';
  const finite = (v: unknown) => typeof v === 'number' && Number.isFinite(v);
  for (const [i, c] of components.entries()) {
    if (!isFields(c) || typeof c.name !== 'string') return `report.components[${i}] has no name`;
    const bad = firstBad(c, ['groups'], isCount) ?? firstBad(c, ['meanWithinGroupSpread', 'flatShare'], finite);
    if (bad) return `report.components[${i}].${bad}, not a number`;
  }
  return undefined;
}

/** Why `value` is not a kept signal check (a clause to follow "it is not a kept signal check: "), or undefined. */
export function keptCheckProblem(value: unknown): string | undefined {
  if (!isFields(value)) return 'it is not a JSON object';
  const key = value.key;
  if (!isFields(key) || !['dataset', 'runtime', 'reward'].every((k) => typeof key[k] === 'string'))
    return 'its key is missing or incomplete';
  if (typeof value.at !== 'string') return 'its time (at) is missing';
  if (value.route !== 'cloud' && value.route !== 'local') return `its route is ${quotedValue(value.route)}`;
  if (!STATUSES.has(value.status as string)) return `its status is ${quotedValue(value.status)}`;
  const counts = firstBad(value, ['groupSize', 'rows'], isCount) ?? firstBad(value, ['plannedRollouts'], isCount, true);
  if (counts) return `${counts}, not a whole number`;
  const tokens = firstBad(
    value,
    ['tokensPerRollout.prefill', 'tokensPerRollout.sample'],
    (v) => typeof v === 'number' && Number.isFinite(v) && v >= 0,
    true,
  );
  if (tokens) return `${tokens}, not a finite token count`;
  if (value.report === undefined) return undefined;
  if (!isFields(value.report)) return `its report is ${quotedValue(value.report)}`;
  const report = { report: value.report };
  const reportCounts = firstBad(
    report,
    [
      'rollouts',
      'solved',
      'failed',
      'unmatched',
      'groups',
      'singleRolloutGroups',
      'stepUnknownGroups',
      'groupSize',
      'zeroAdvantage.groups',
      'zeroAdvantage.alwaysSolved',
      'zeroAdvantage.neverSolved',
      'zeroAdvantage.samePartialCredit',
    ].map((k) => `report.${k}`),
    isCount,
  );
  if (reportCounts) return `${reportCounts}, not a whole number`;
  const lists = ['recommendations', 'solvedBy', 'atGroupSize'].find((k) => !Array.isArray((value.report as Fields)[k]));
  if (lists) return `report.${lists} is not a list`;
  if (value.report.warnings !== undefined && !Array.isArray(value.report.warnings)) return 'report.warnings is not a list';
  if (!(typeof value.report.successThreshold === 'number' && Number.isFinite(value.report.successThreshold)))
    return `report.successThreshold is ${quotedValue(value.report.successThreshold)}, not a finite number`;
  const share = firstBad(
    report,
    ['report.zeroAdvantage.share', 'report.meanWithinGroupSpread'],
    (v) => typeof v === 'number' && Number.isFinite(v),
    true,
  );
  if (share) return `${share}, not a finite number`;
  const components = componentsProblem(value.report.components);
  if (components) return components;
  if (value.report.outcomeTiedGroups !== undefined && !isCount(value.report.outcomeTiedGroups))
    return `report.outcomeTiedGroups is ${quotedValue(value.report.outcomeTiedGroups)}, not a whole number`;
  if (value.report.rewards !== null) {
    const rewards = firstBad(report, ['report.rewards.mean', 'report.rewards.min', 'report.rewards.max'], followsRewardRule);
    if (rewards) return `${rewards}, which breaks the reward rule (${REWARD_RULE})`;
    if (!Array.isArray((value.report.rewards as Fields).histogram)) return 'report.rewards.histogram is not a list';
  }
  return undefined;
}
