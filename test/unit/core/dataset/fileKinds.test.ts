import { strict as assert } from 'node:assert';
import { validateDataset } from '../../../../src/core/dataset';
import { otherKindOf, otherKindOfName } from '../../../../src/core/dataset/fileKinds';
import { codes } from './helpers';

async function* once(bytes: Uint8Array) {
  yield bytes;
}

describe('files that hold no dataset', () => {
  it('are told by their first bytes: other compressions, Arrow file and stream, Parquet under a text name', () => {
    const kinds: [number[], string][] = [
      [[0x42, 0x5a, 0x68, 0x39, 0x31, 0x41, 0x59, 0x26, 0x53, 0x59], 'bzip2'],
      [[0xfd, 0x37, 0x7a, 0x58, 0x5a, 0x00], 'xz'],
      [[0x50, 0x4b, 0x03, 0x04], 'zip'],
      [[0x28, 0xb5, 0x2f, 0xfd], 'Zstandard'],
      [[...Buffer.from('ARROW1'), 0, 0], 'Arrow'],
      [[0xff, 0xff, 0xff, 0xff, 0xf8, 0, 0, 0], 'Arrow'],
      [[...Buffer.from('PAR1'), 0x15, 0x04], 'Parquet'],
    ];
    for (const [bytes, kind] of kinds) assert.match(otherKindOf(Uint8Array.from(bytes), 'csv') ?? '', new RegExp(kind), kind);
  });

  it('leaves text alone that only starts like one: a CSV header "BZh…", "PAR1,…" or "ARROW1,…" is read as rows', async () => {
    for (const header of ['BZh9', 'PAR1', 'ARROW1', 'PK']) {
      const text = `${header},prompt\nx,"Say hi"\n`;
      assert.equal(otherKindOf(Buffer.from(text), 'csv'), undefined, header);
      const report = await validateDataset(once(Buffer.from(text)), { format: 'csv', convention: 'none' });
      assert.equal(report.rows, 1, header);
      assert.ok(!codes(report).includes('unreadable'), header);
    }
  });

  it('JSON text is named only where Parquet was expected', () => {
    assert.match(otherKindOf(Buffer.from('{"prompt": "x"}\n'), 'parquet') ?? '', /JSON text .* not Parquet/);
    assert.equal(otherKindOf(Buffer.from('{"prompt": "x"}\n'), 'jsonl'), undefined);
  });

  it('are told by their names where no format is: compressed datasets, gzipped Parquet, Arrow and Feather, TSV, Excel', () => {
    const names: [string, RegExp | undefined][] = [
      ['s3://b/train.jsonl.zst', /Zstandard/],
      ['train.csv.bz2', /bzip2/],
      ['data/train.JSON.XZ', /xz/],
      ['train.jsonl.zip', /zip/],
      ['train.parquet.gz', /Parquet compresses its own pages/],
      ['train.feather', /Arrow/],
      ['data-00000-of-00001.arrow', /Arrow/],
      ['train.tsv', /tab-separated .* sep="\\t"/],
      ['Train.XLSX', /Excel workbook/],
      ['old.xls', /Excel workbook/],
      ['notes.txt', undefined],
      ['train.zip', undefined],
    ];
    for (const [name, message] of names)
      if (message) assert.match(otherKindOfName(name) ?? '', message, name);
      else assert.equal(otherKindOfName(name), undefined, name);
  });
});
