// One allowance for a whole local check, not one cap per answer: every rollout's requests, the policy's answers and
// errors, a stream's pending event and what is kept of each rollout draw on it, so rollouts played at once cannot add
// up to more than it. The rollout whose draw would pass it ends with a sentence; the others go on.

/** What a local check holds at once, all rollouts together (see docs/limits.md). */
export const CHECK_ALLOWANCE_BYTES = 128 * 1024 * 1024;

/**
 * What one byte of an agent's request costs while its call is answered: the bytes read, their text, the parsed
 * messages and the JSON forwarded to the policy (measured: 15 MB bodies raised the CLI's peak by ~100 MB each).
 */
export const REQUEST_BYTE_COPIES = 4;

/** What is kept of one rollout (its turns, tool results, the agent's error): past it the rest is cut with a note. */
export const KEPT_ROLLOUT_BYTES = 16 * 1024 * 1024;

export const megabytes = (bytes: number): string => `${Math.round(bytes / (1024 * 1024))} MB`;

export class CheckAllowance {
  private heldBytes = 0;
  private peakBytes = 0;

  constructor(readonly bytes: number = CHECK_ALLOWANCE_BYTES) {}

  /** Takes `n` bytes when they fit (true), else takes nothing (false). */
  take(n: number): boolean {
    if (this.heldBytes + n > this.bytes) return false;
    this.heldBytes += n;
    this.peakBytes = Math.max(this.peakBytes, this.heldBytes);
    return true;
  }

  give(n: number): void {
    this.heldBytes = Math.max(0, this.heldBytes - n);
  }

  get held(): number {
    return this.heldBytes;
  }

  /** The most held at once: a test holds it to the allowance. */
  get peak(): number {
    return this.peakBytes;
  }

  /** The sentence that ends a rollout whose `what` would pass the allowance. */
  exceeded(what: string): string {
    return `${what} would pass the local check's allowance of ${megabytes(this.bytes)} (everything the check holds at once, all rollouts together), so this rollout was stopped; the others go on.`;
  }
}

/** A part of the allowance taken and given back as one: a request body, an answer being read, a stream's pending event. */
export class Draw {
  private taken = 0;

  constructor(private readonly allowance: CheckAllowance) {}

  get held(): number {
    return this.taken;
  }

  /** Holds `n` more bytes; false when they would pass the allowance. */
  more(n: number): boolean {
    if (!this.allowance.take(n)) return false;
    this.taken += n;
    return true;
  }

  /** Holds exactly `n` bytes from now on (a pending event that grew or was handed on). */
  resize(n: number): boolean {
    if (n <= this.taken) {
      this.allowance.give(this.taken - n);
      this.taken = n;
      return true;
    }
    return this.more(n - this.taken);
  }

  release(): void {
    this.allowance.give(this.taken);
    this.taken = 0;
  }
}
