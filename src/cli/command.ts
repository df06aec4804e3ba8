/** What every `mtrl` subcommand is: a name, a one-line summary, a usage text and a runner returning the exit code. */
export interface CliCommand {
  name: string;
  summary: string;
  usage: string;
  /** Exit code: 0 clean, 1 findings, 2 usage or I/O error. */
  run(args: string[], io: CliIO): Promise<number>;
}

export interface CliIO {
  out(text: string): void;
  err(text: string): void;
  /** Standard input as it arrives, for commands that read `-` (never buffered whole). */
  stdin(): AsyncIterable<Uint8Array | string> | Iterable<string>;
}

/** A usage or I/O problem: printed as one line, exit code 2. */
export class UsageError extends Error {}

export const EXIT_CLEAN = 0;
export const EXIT_FINDINGS = 1;
export const EXIT_USAGE = 2;
