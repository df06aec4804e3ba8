import type { CliCommand } from './command';
import { smokeCommand } from './smoke';
import { lintCommand } from './lint';
import { rolloutsCommand } from './rollouts';
import { rewardCommand } from './reward';
import { validateCommand } from './validate';
import { emulatorCommand } from './emulator';
import { compareCommand } from './compare';

/** Every subcommand of `mtrl`, in the order `--help` lists them. Each feature adds its own. */
export const commands: CliCommand[] = [smokeCommand, lintCommand, rolloutsCommand, rewardCommand, validateCommand, compareCommand, emulatorCommand];
