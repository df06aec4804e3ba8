// The UI checks handed out a group (one test/host/ui file) at a time: sessions side by side each take the next group
// once they are free, so the one whose suites end first takes more of the checks.

// Groups on the seeded running job go first, in file order (budget-cleanup.mjs before jobs.mjs, which stops the job),
// while it still runs: at the emulator's default pace it ends about 11 minutes after the start.
const RUNNING_JOB_FIRST = ['budget-cleanup.mjs', 'health.mjs', 'jobs.mjs'];
// Then the longest groups (measured in CI), so that the sessions sharing the queue end with short ones and close together.
// A group not named here comes after them, in file order.
const LONGEST_FIRST = ['walkthrough.mjs', 'signal.mjs', 'restore.mjs', 'reward-lens.mjs', 'evaluations.mjs', 'metrics.mjs', 'narrow.mjs'];

const rank = (group) => {
  const at = [...RUNNING_JOB_FIRST, ...LONGEST_FIRST].indexOf(group);
  return at < 0 ? Infinity : at;
};

export function uiQueue(checks) {
  const groups = [];
  for (const check of checks) {
    const same = groups.find((g) => g[0].group === check.group);
    if (same) same.push(check);
    else groups.push([check]);
  }
  // A stable sort: unnamed groups keep their file order, and each group's checks theirs.
  groups.sort((a, b) => rank(a[0].group) - rank(b[0].group));
  return { take: () => groups.shift() };
}
