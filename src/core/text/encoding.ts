/** The encoding a byte order mark names, for the ones that are not UTF-8. */
export function wideEncodingOf(bytes: Uint8Array): 'UTF-16LE' | 'UTF-16BE' | 'UTF-32LE' | 'UTF-32BE' | undefined {
  const [a, b, c, d] = bytes;
  // UTF-32 LE starts like UTF-16 LE (FF FE), so it is checked first.
  if (a === 0xff && b === 0xfe && c === 0 && d === 0) return 'UTF-32LE';
  if (a === 0 && b === 0 && c === 0xfe && d === 0xff) return 'UTF-32BE';
  if (a === 0xff && b === 0xfe) return 'UTF-16LE';
  if (a === 0xfe && b === 0xff) return 'UTF-16BE';
  return undefined;
}

/** The sentence for a file the service cannot read as UTF-8. */
export function wideEncodingMessage(encoding: string): string {
  return `The file is ${encoding} (it starts with a ${encoding} byte order mark); it is read as UTF-8 only: save it as UTF-8.`;
}

/** A file's text: UTF-8 (a BOM dropped) or UTF-16 (by its BOM); UTF-32 is refused with a sentence, as no decoder reads it here. */
export function decodeFileText(bytes: Uint8Array): { text: string } | { error: string } {
  const wide = wideEncodingOf(bytes);
  if (wide === 'UTF-32LE' || wide === 'UTF-32BE') return { error: wideEncodingMessage(wide) };
  const decoder = new TextDecoder(wide === 'UTF-16LE' ? 'utf-16le' : wide === 'UTF-16BE' ? 'utf-16be' : 'utf-8');
  return { text: decoder.decode(bytes) };
}
