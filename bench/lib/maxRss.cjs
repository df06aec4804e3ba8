// Preloaded into a benchmarked command: its peak resident memory (KB) and CPU time (µs, user + system), printed last on stderr.
process.on('exit', () => {
  const { maxRSS, userCPUTime, systemCPUTime } = process.resourceUsage();
  process.stderr.write(`\nmaxRSS ${maxRSS} cpu ${userCPUTime + systemCPUTime}\n`);
});
