/** Tool arguments and results as people read them: objects as indented JSON, text as it is. */

/** Pretty JSON for objects, arrays and numbers; a string is shown as written (readers parse JSON text into values already). */
export function readableJson(value: unknown): string {
  if (value === undefined) return '';
  if (typeof value === 'string') return value;
  try {
    return JSON.stringify(value, null, 2) ?? String(value);
  } catch {
    // A cyclic or BigInt value cannot come from JSON, but a pack's data might hold one: show what it is rather than fail.
    return String(value);
  }
}

const SCALAR_CHARS = 40;

/** One line for a call's arguments, e.g. `action=restart_router`: scalar fields as key=value, anything else as compact JSON. */
export function argumentSummary(value: unknown, max = 80): string {
  let text: string;
  if (value && typeof value === 'object' && !Array.isArray(value)) {
    text = Object.entries(value as Record<string, unknown>)
      .map(([key, v]) => `${key}=${scalar(v)}`)
      .join(', ');
  } else text = scalar(value);
  return text.length > max ? `${text.slice(0, max - 1)}…` : text;
}

function scalar(value: unknown): string {
  const text = typeof value === 'string' ? value : (JSON.stringify(value) ?? String(value));
  const line = text.replace(/\s+/g, ' ');
  return line.length > SCALAR_CHARS ? `${line.slice(0, SCALAR_CHARS - 1)}…` : line;
}
