import { EXIT_USAGE, UsageError, type CliIO } from './cli/command';
import { commands } from './cli/commands';

declare const __MTRL_VERSION__: string | undefined;

const version = typeof __MTRL_VERSION__ === 'string' ? __MTRL_VERSION__ : 'dev';

function usage(): string {
  const width = Math.max(8, ...commands.map((c) => c.name.length));
  const lines = commands.map((c) => `  ${c.name.padEnd(width)}  ${c.summary}`);
  return [
    'Usage: mtrl <command> [options]',
    '',
    'The checks of MTRL Workbench on the command line, for your own CI.',
    'Every command prints human output by default and JSON with --json;',
    'exit code 0 = clean, 1 = findings, 2 = usage or I/O error.',
    '',
    'Commands:',
    ...(lines.length ? lines : ['  (none yet)']),
    '',
    'Options:',
    '  --help, -h     show this help (or `mtrl <command> --help`)',
    '  --version, -v  print the version',
  ].join('\n');
}

export async function main(argv: string[], io: CliIO): Promise<number> {
  const [name, ...rest] = argv;
  if (name === undefined || name === '--help' || name === '-h' || name === 'help') {
    io.out(usage());
    return name === undefined ? EXIT_USAGE : 0;
  }
  if (name === '--version' || name === '-v') {
    io.out(version);
    return 0;
  }
  const command = commands.find((c) => c.name === name);
  if (!command) {
    io.err(`mtrl: unknown command '${name}'. Run 'mtrl --help' for the list.`);
    return EXIT_USAGE;
  }
  if (rest.includes('--help') || rest.includes('-h')) {
    io.out(command.usage);
    return 0;
  }
  try {
    return await command.run(rest, io);
  } catch (error) {
    // Usage and I/O errors are one line; anything else is a bug, so keep its stack for the report.
    const message = error instanceof UsageError || !(error instanceof Error) ? String((error as Error).message ?? error) : (error.stack ?? error.message);
    io.err(`mtrl ${name}: ${message}`);
    return EXIT_USAGE;
  }
}

const processIO: CliIO = {
  out: (text) => process.stdout.write(text.endsWith('\n') ? text : `${text}\n`),
  err: (text) => process.stderr.write(text.endsWith('\n') ? text : `${text}\n`),
  stdin: () => process.stdin,
};

if (require.main === module) {
  // A reader that stops early (`mtrl validate … | head`) closes the pipe: that ends the output, quietly.
  for (const stream of [process.stdout, process.stderr]) {
    stream.on('error', (error: NodeJS.ErrnoException) => {
      if (error.code !== 'EPIPE') throw error;
      process.exit(typeof process.exitCode === 'number' ? process.exitCode : 0);
    });
  }
  main(process.argv.slice(2), processIO).then(
    (code) => {
      process.exitCode = code;
    },
    (error: unknown) => {
      process.stderr.write(`mtrl: ${error instanceof Error ? error.message : String(error)}\n`);
      process.exitCode = EXIT_USAGE;
    },
  );
}

