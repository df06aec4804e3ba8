// Preloaded into a benchmarked command: its peak resident memory, printed last on stderr.
process.on('exit', () => process.stderr.write(`\nmaxRSS ${process.resourceUsage().maxRSS}\n`));
