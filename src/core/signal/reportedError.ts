import { asFields } from '../text/json';
// The agent's own words for a rollout that did not play: what it returned or logged after catching its error.

/** A summary or message that says the rollout went wrong: it starts so, or names an exception ("error: …", "BotoCoreError: …"). */
const SAYS_FAILED = /^\s*(error|failed|failure|exception)\b|\b[A-Z]\w*(Error|Exception)\b|Traceback/;
/** A line of stderr that carries an error: a caught exception logged, or its traceback's last line. */
const ERROR_LINE = /\b[A-Z]\w*(Error|Exception)\b|\berror\b|\bfailed\b|Unable to|denied|credentials/i;

const text = (v: unknown): string | undefined => (typeof v === 'string' && v.trim() ? v.trim() : undefined);

/** The last `n` non-empty lines of a rollout's stderr, as kept for its report. */
export function stderrTail(stderr: string, n = 5): string[] {
  return stderr
    .split(/\r?\n/)
    .map((l) => l.trimEnd())
    .filter((l) => l.trim())
    .slice(-n);
}

/**
 * The error the agent reported instead of playing, or undefined: a `status`, `summary` or `metrics` that says failed or
 * error (quoting the most telling field), or, for a rollout with no model call answered, the last error line it logged.
 */
export function reportedError(returned: unknown, answeredCalls: number, stderr: readonly string[]): string | undefined {
  const v = asFields(returned);
  if (v) {
    const metrics = (v.metrics && typeof v.metrics === 'object' ? v.metrics : {}) as Record<string, unknown>;
    const error = text(v.error) ?? text(metrics.error);
    if (error) return error;
    const words = [text(v.summary), text(v.message), text(metrics.summary)];
    const status = text(v.status) ?? text(metrics.status);
    const said = words.find((w) => w && SAYS_FAILED.test(w));
    if (said) return said;
    if (status && /^(error|failed|failure)$/i.test(status)) return words.find(Boolean) ?? `status: ${status}`;
  }
  if (answeredCalls > 0) return undefined;
  return [...stderr]
    .reverse()
    .find((l) => ERROR_LINE.test(l))
    ?.trim();
}
