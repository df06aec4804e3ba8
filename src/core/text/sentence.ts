/** Ends text with one full stop unless it already ends a sentence (`.`, `!`, `?`, `…`): quoted messages often bring their own. */
export function endSentence(text: string): string {
  const trimmed = text.trimEnd();
  return /[.!?…]$/.test(trimmed) ? trimmed : `${trimmed}.`;
}
