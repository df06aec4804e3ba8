import { parseArgs, type ParseArgsConfig } from 'node:util';

/** What every `mtrl` subcommand is: a name, a usage text and a runner returning the exit code (its summary is in commands.ts). */
export interface CliCommand {
  name: string;
  usage: string;
  /** Exit code: 0 clean, 1 findings, 2 usage or I/O error. */
  run(args: string[], io: CliIO): Promise<number>;
}

export interface CliIO {
  out(text: string): void;
  err(text: string): void;
  /** Standard input as it arrives, for commands that read `-` (never buffered whole). */
  stdin(): AsyncIterable<Uint8Array | string> | Iterable<string>;
  /** Aborts at the command's deadline (reason: a TimeoutError); AWS calls pass it on so they stop too. */
  signal?: AbortSignal;
}

/** A usage or I/O problem: printed as a sentence after the command name (never a stack trace), exit code 2. */
export class UsageError extends Error {
  override name = 'UsageError';
}

/** Known by name, not `instanceof`: each command is its own bundle (dist/cli-*.js) with its own copy of this class. */
export function isUsageError(error: unknown): error is UsageError {
  return error instanceof Error && error.name === 'UsageError';
}

/** A command's flags and whether it takes other arguments; every command parses strictly. */
type OptionsConfig = Pick<ParseArgsConfig, 'options' | 'allowPositionals'>;

/** The command's arguments parsed; a flag it does not take, a flag without its value or a stray argument is a usage error ending with its usage line. */
export function parseOptions<T extends OptionsConfig>(args: string[], usage: string, config: T) {
  try {
    return parseArgs({ ...config, args, strict: true });
  } catch (error) {
    throw new UsageError(`${(error as Error).message}\n${usage.split('\n', 1)[0]}`);
  }
}

export const EXIT_CLEAN = 0;
export const EXIT_FINDINGS = 1;
export const EXIT_USAGE = 2;
