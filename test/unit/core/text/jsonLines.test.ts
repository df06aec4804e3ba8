import { strict as assert } from 'node:assert';
import { readJsonLines } from '../../../../src/core/text/jsonLines';
import { transcriptsFromJsonLines } from '../../../../src/core/transcript/jsonLines';

describe('JSON Lines: one reader for dataset rows and transcripts', () => {
  it('skips blank lines (CRLF too) and stops at the first line that is not JSON or not kept, naming it', () => {
    const even = (v: unknown) => (typeof v === 'number' && v % 2 === 0 ? v : undefined);
    assert.deepEqual(readJsonLines('2\r\n\n4\n', even), { items: [2, 4] });
    assert.deepEqual(readJsonLines('2\n{oops\n4', even), { items: [2], stop: { line: 2, notJson: true } });
    assert.deepEqual(readJsonLines('2\n\n3\n4', even), { items: [2], stop: { line: 3, notJson: false } });
  });

  it('says in the words of each file which line is wrong', () => {
    const transcript = { id: 't1', task: { prompt: 'refund order 7' }, turns: [] };
    const read = transcriptsFromJsonLines(`${JSON.stringify(transcript)}\n{"id":"t2"}`);
    assert.deepEqual(read.transcripts, [{ ...transcript, groupKey: 't1' }]);
    assert.deepEqual(read.problem, { line: 2, message: 'is not a transcript (id, task, turns)' });
    assert.deepEqual(transcriptsFromJsonLines('{').problem, { line: 1, message: 'is not JSON' });
  });
});
