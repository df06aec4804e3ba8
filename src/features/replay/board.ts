import type { ReplayPanel } from './panel';

let loaded: typeof ReplayPanel | undefined;

/** The board's code, required when a board first opens (the build maps './panel' to dist/replay.js): activation only registers. */
export function boardClass(): typeof ReplayPanel {
  // eslint-disable-next-line @typescript-eslint/no-require-imports
  loaded ??= (require('./panel') as typeof import('./panel')).ReplayPanel;
  return loaded;
}

/** The open boards, through their class; before any board opened there are none. */
export function openBoards(): typeof ReplayPanel | undefined {
  return loaded;
}
