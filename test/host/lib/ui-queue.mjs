// The UI checks handed out a group (one test/host/ui file) at a time: sessions side by side each take the next group
// once they are free, so the one whose suites end first takes more of the checks.
export function uiQueue(checks) {
  const groups = [];
  for (const check of checks) {
    const last = groups.at(-1);
    if (last?.[0].group === check.group) last.push(check);
    else groups.push([check]);
  }
  return { take: () => groups.shift() };
}
