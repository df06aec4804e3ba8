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
  /** Standard input as text, for commands that read `-`. */
  stdin(): Promise<string>;
  /** Aborts at the command's deadline (reason: a TimeoutError); AWS calls pass it on so they stop too. */
  signal?: AbortSignal;
}

/** A usage or I/O problem: printed as one line, exit code 2. */
export class UsageError extends Error {}

export const EXIT_CLEAN = 0;
export const EXIT_FINDINGS = 1;
export const EXIT_USAGE = 2;
