import { EXIT_USAGE, isUsageError, UsageError, type CliIO } from './cli/command';
import { commands } from './cli/commands';
import { terminalOutput } from './core/text/display';

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
    'exit code 0 = clean, 1 = findings, 2 = usage, I/O or AWS error.',
    '',
    'Commands:',
    ...(lines.length ? lines : ['  (none yet)']),
    '',
    'Options:',
    '  --help, -h     show this help (or `mtrl <command> --help`)',
    '  --version, -v  print the version',
    '  --deadline S   stop any command after S seconds with a sentence (defaults: smoke and lint 300, others 900)',
  ].join('\n');
}

export async function main(argv: string[], given: CliIO): Promise<number> {
  // The last wall: whatever outside text a command prints, no escape sequence, CR, NUL or bidi control reaches the terminal raw.
  const io: CliIO = { ...given, out: (text) => given.out(terminalOutput(text)), err: (text) => given.err(terminalOutput(text)) };
  const [name, ...rest] = argv;
  if (name === undefined || name === '--help' || name === '-h' || name === 'help') {
    io.out(usage());
    return name === undefined ? EXIT_USAGE : 0;
  }
  if (name === '--version' || name === '-v') {
    io.out(version);
    return 0;
  }
  const entry = commands.find((c) => c.name === name);
  if (!entry) {
    io.err(`mtrl: unknown command '${name}'. Run 'mtrl --help' for the list.`);
    return EXIT_USAGE;
  }
  const command = entry.load();
  if (rest.includes('--help') || rest.includes('-h')) {
    io.out(command.usage);
    return 0;
  }
  try {
    const { seconds = entry.deadlineSeconds, args } = takeDeadline(rest);
    return await withDeadline(seconds, entry.graceSeconds ?? GRACE_SECONDS, io, (signal) => command.run(args, { ...io, signal }), name);
  } catch (error) {
    // Usage and I/O errors are one line; anything else is a bug, so keep its stack for the report.
    const message =
      isUsageError(error) || !(error instanceof Error) ? String((error as Error).message ?? error) : (error.stack ?? error.message);
    io.err(`mtrl ${name}: ${message}`);
    return EXIT_USAGE;
  }
}

/** `--deadline S` (or `--deadline=S`) taken out of a command's arguments. */
function takeDeadline(args: string[]): { seconds?: number; args: string[] } {
  const at = args.findIndex((a) => a === '--deadline' || a.startsWith('--deadline='));
  if (at < 0) return { args };
  const inline = args[at].startsWith('--deadline=');
  const text = inline ? args[at].slice('--deadline='.length) : args[at + 1];
  const seconds = Number(text);
  if (text === undefined || !Number.isFinite(seconds) || seconds <= 0)
    throw new UsageError(`--deadline takes a number of seconds, not "${text ?? ''}".`);
  return { seconds, args: [...args.slice(0, at), ...args.slice(at + (inline ? 1 : 2))] };
}

/** Seconds a command gets after its deadline to end with its own sentence (which names the endpoint) before this one is printed. */
const GRACE_SECONDS = 3;

/** Runs the command with a signal that aborts at the deadline; a command that still has not ended then is abandoned with a sentence. */
async function withDeadline(
  seconds: number | undefined,
  graceSeconds: number,
  io: CliIO,
  run: (signal: AbortSignal | undefined) => Promise<number>,
  name: string,
): Promise<number> {
  if (seconds === undefined) return run(undefined);
  const deadline = `mtrl ${name}: stopped: no result within the deadline of ${seconds} s. Give it longer with --deadline S, or check the endpoint and network it waits for.`;
  const controller = new AbortController();
  let timer: NodeJS.Timeout | undefined;
  const abandoned = new Promise<number>((resolve) => {
    timer = setTimeout(
      () => {
        controller.abort(new DOMException(`no result within ${seconds} s`, 'TimeoutError'));
        timer = setTimeout(() => {
          io.err(deadline);
          resolve(EXIT_USAGE);
        }, graceSeconds * 1000);
      },
      Math.min(seconds * 1000, 2 ** 31 - 1),
    );
  });
  const ran = run(controller.signal).catch((error: unknown) => {
    // Whatever the abort broke mid-way, the user's answer is the deadline, not a stack trace.
    if (!controller.signal.aborted || isUsageError(error)) throw error;
    io.err(deadline);
    return EXIT_USAGE;
  });
  try {
    return await Promise.race([ran, abandoned]);
  } finally {
    clearTimeout(timer);
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
      // The command has ended: a socket or timer it left open (e.g. one abandoned at the deadline) must not hold the shell.
      setTimeout(() => process.exit(code), 1_000).unref();
    },
    (error: unknown) => {
      process.stderr.write(`mtrl: ${error instanceof Error ? error.message : String(error)}\n`);
      process.exitCode = EXIT_USAGE;
    },
  );
}
