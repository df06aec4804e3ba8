/** Where the emulator reads the time: the wall clock in a running server, a manual one in unit tests. */
export interface Clock {
  now(): number;
}

export const systemClock: Clock = { now: () => Date.now() };

/** A clock tests move by hand, so a 12-hour job completes instantly. */
export class ManualClock implements Clock {
  constructor(private time = Date.parse('2026-11-29T12:00:00Z')) {}
  now(): number {
    return this.time;
  }
  advance(ms: number): void {
    this.time += ms;
  }
}
