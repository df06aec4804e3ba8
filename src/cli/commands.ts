import type { CliCommand } from './command';

/** Every subcommand of `mtrl`, in the order `--help` lists them. Each feature adds its own. */
export const commands: CliCommand[] = [];
