import { strict as assert } from 'node:assert';
import { decodeFileText, wideEncodingOf } from '../../../../src/core/text/encoding';
import { validateDataset } from '../../../../src/core/dataset';

const utf16le = (text: string) => Buffer.concat([Buffer.from([0xff, 0xfe]), Buffer.from(text, 'utf16le')]);
const utf16be = (text: string) => Buffer.from(utf16le(text).swap16());
const utf32le = (text: string) =>
  Buffer.concat([Buffer.from([0xff, 0xfe, 0, 0]), ...[...text].map((c) => Buffer.from([c.charCodeAt(0), 0, 0, 0]))]);

describe('text encodings', () => {
  it('names the wide encoding of a byte order mark, UTF-32 before UTF-16', () => {
    assert.equal(wideEncodingOf(utf16le('{}')), 'UTF-16LE');
    assert.equal(wideEncodingOf(utf16be('{}')), 'UTF-16BE');
    assert.equal(wideEncodingOf(utf32le('{}')), 'UTF-32LE');
    assert.equal(wideEncodingOf(Buffer.from('\ufeff{}')), undefined);
  });

  it('decodes UTF-16 by its mark and refuses UTF-32 with a sentence', () => {
    assert.deepEqual(decodeFileText(utf16le('{"a": 1}')), { text: '\ufeff{"a": 1}'.slice(1) });
    assert.deepEqual(decodeFileText(utf16be('{"a": 1}')), { text: '{"a": 1}' });
    assert.match((decodeFileText(utf32le('{}')) as { error: string }).error, /UTF-32LE .* save it as UTF-8/);
  });

  it('a UTF-16 dataset is one unreadable finding, not a finding per line', async () => {
    async function* chunks() {
      yield utf16le('{"prompt": "a"}\n{"prompt": "b"}\n');
    }
    const report = await validateDataset(chunks(), { format: 'jsonl' });
    assert.deepEqual(
      report.findings.map((f) => `${f.code}: ${f.message}`),
      ['unreadable: The file is UTF-16LE (it starts with a UTF-16LE byte order mark); it is read as UTF-8 only: save it as UTF-8.'],
    );
  });
});
