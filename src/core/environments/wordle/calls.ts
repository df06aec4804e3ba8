import type { ToolCall } from '../../transcript/model';
import { RECORD_MOVE_TOOL } from '../../transcript/record';
import { asFields } from '../../text/json';

/** The sample agent's tool. */
export const TOOL = 'guess_word';

/** Calls that can be guesses: a tool named for guessing (`guess_word`, the emulator's `guess`), a record's one-move turn, or a nameless span. */
const GUESSING = /guess/i;

/** The word a call plays, when it is a guess. */
export const guessOf = (call: ToolCall): string | undefined => {
  // Other tools' arguments are not read: a trace decodes them only when someone does.
  if (call.name && call.name !== RECORD_MOVE_TOOL && !GUESSING.test(call.name)) return undefined;
  const fields = asFields(call.arguments);
  // `guess`, else a guessing tool's one string argument (the public sample's `guess_word(word)`).
  const strings = Object.values(fields ?? {}).filter((v) => typeof v === 'string');
  const guess = fields?.guess ?? (strings.length === 1 ? strings[0] : undefined);
  return typeof guess === 'string' ? guess : call.name === TOOL && typeof call.arguments === 'string' ? call.arguments : undefined;
};
