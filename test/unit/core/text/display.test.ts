import { strict as assert } from 'node:assert';
import { escapeControls, outsideText, visibleText } from '../../../../src/core/text/display';

const BIDI = ['\u202A', '\u202B', '\u202C', '\u202D', '\u202E', '\u2066', '\u2067', '\u2068', '\u2069', '\u200E', '\u200F', '\u061C'];

describe('text shown to people', () => {
  it('visibleText shows every bidi control as a marker, so "crane‮etals" cannot read as "cranesalte"', () => {
    assert.equal(visibleText('crane\u202Eetals'), 'crane⟨U+202E⟩etals');
    for (const c of BIDI) {
      const shown = visibleText(`a${c}b`);
      assert.match(shown, /^a⟨U\+[0-9A-F]{4}⟩b$/, JSON.stringify(c));
      assert.ok(!shown.includes(c), `U+${c.charCodeAt(0).toString(16)} left raw`);
    }
  });

  it('visibleText shows NUL, ESC and DEL as markers and keeps tabs and line breaks, and plain text as it is', () => {
    assert.equal(visibleText('a\u0000b\u001Bc\u007Fd'), 'a⟨U+0000⟩b⟨U+001B⟩c⟨U+007F⟩d');
    assert.equal(visibleText('Guess 1/6: CRANE\n\tÉté ✓ 単語'), 'Guess 1/6: CRANE\n\tÉté ✓ 単語');
  });

  it('escapeControls writes controls and bidi characters as JSON escapes for messages', () => {
    assert.equal(escapeControls("found '\u0000'"), "found '\\u0000'");
    assert.equal(escapeControls('a\tb\nc\rd\u001Fe\u202Ef'), 'a\\tb\\nc\\rd\\u001fe\\u202ef');
    assert.equal(escapeControls("The answer 'crâne' is fine."), "The answer 'crâne' is fine.");
  });

  it('shows server text on one line: breaks folded, controls and bidi escaped, cut with its length stated', () => {
    assert.equal(outsideText('ok\r\nmtrl metrics: fake success\u001b[31m\u202E'), 'ok mtrl metrics: fake success\\u001b[31m\\u202e');
    const long = outsideText('x'.repeat(10_000), 20);
    assert.equal(long, `${'x'.repeat(20)}… (cut; 10,000 characters in all)`);
    assert.equal(outsideText('short'), 'short');
  });
});
