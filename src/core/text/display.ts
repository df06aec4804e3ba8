// Text from logs, datasets and the service is shown to people: characters that reorder or hide text must not act, only show.

/** Bidirectional controls (embeddings, overrides, isolates, marks): they can make shown text read differently from what it is. */
const BIDI = '\\u061C\\u200E\\u200F\\u202A-\\u202E\\u2066-\\u2069';
/** C0 controls but tab, line feed and carriage return (which layout keeps), and DEL. */
const C0 = '\\u0000-\\u0008\\u000B\\u000C\\u000E-\\u001F\\u007F';

/** C1 controls: U+009B alone starts an escape sequence in some terminals, as ESC [ does. */
const C1 = '\\u0080-\\u009F';

const HIDDEN = new RegExp(`[${BIDI}${C0}${C1}]`, 'g');
const CONTROLS = new RegExp(`[${BIDI}\\u0000-\\u001F\\u007F${C1}]`, 'g');
/** What a terminal must not get raw: every control but line feed and tab, and bidi. */
const TERMINAL_CONTROLS = new RegExp(`[${BIDI}\\u0000-\\u0008\\u000B-\\u001F\\u007F${C1}]`, 'g');

const codePoint = (c: string) => c.charCodeAt(0).toString(16).toUpperCase().padStart(4, '0');

/**
 * Text as it may be shown on a board, in a tree row or a tooltip: each bidi control and invisible control character
 * becomes a visible marker such as `⟨U+202E⟩`, so it cannot spoof the text around it. Tab and line breaks stay.
 */
export function visibleText(text: string): string {
  return text.replace(HIDDEN, (c) => `⟨U+${codePoint(c)}⟩`);
}

const SHORT_ESCAPES: Record<string, string> = { '\t': '\\t', '\n': '\\n', '\r': '\\r' };

/** Text quoted inside a message (a finding, a sentence): every control and bidi character as a JSON-style escape such as `\u0000`. */
export function escapeControls(text: string): string {
  return text.replace(CONTROLS, (c) => SHORT_ESCAPES[c] ?? `\\u${codePoint(c).toLowerCase()}`);
}

/**
 * Everything the command line prints, as the terminal gets it: lines and tabs kept, every other control (the ESC of
 * an ANSI sequence, CR, NUL, C1) and bidi character escaped as `\u001b`. JSON output stays valid and means the same:
 * those characters only occur inside its strings, where the escape reads back as the character.
 */
export function terminalOutput(text: string): string {
  return text.replace(TERMINAL_CONTROLS, (c) => `\\u${codePoint(c).toLowerCase()}`);
}

/** Characters of outside text shown at most: a 5 MB error page is cut, with its length stated. */
const OUTSIDE_TEXT_MAX = 500;

/**
 * Text from outside (a server's message, an agent's tool call, a task, an exception from your code), safe to print
 * in one line: line breaks folded into spaces (a newline cannot forge a line of our own output), every other control
 * and bidi character escaped, and cut to `max` characters with the length stated.
 */
export function outsideText(text: string, max = OUTSIDE_TEXT_MAX): string {
  const folded = escapeControls(text.replace(/\s*[\r\n]+\s*/g, ' ').trim());
  if (folded.length <= max) return folded;
  return `${folded.slice(0, max)}… (cut; ${text.length.toLocaleString('en-US')} characters in all)`;
}
