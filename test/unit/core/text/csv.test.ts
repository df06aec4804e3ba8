import { strict as assert } from 'node:assert';
import { csvCell } from '../../../../src/core/text/csv';

describe('csvCell', () => {
  it('neutralizes text a spreadsheet would run as a formula, keeps numbers as they are', () => {
    assert.equal(csvCell('=HYPERLINK("http://x","click")'), `"'=HYPERLINK(""http://x"",""click"")"`);
    assert.equal(csvCell('+cmd|/C calc'), "'+cmd|/C calc");
    assert.equal(csvCell('-2+3'), "'-2+3");
    assert.equal(csvCell('@SUM(A1)'), "'@SUM(A1)");
    assert.equal(csvCell('\tx'), "'\tx");
    assert.equal(csvCell('\rx'), `"'\rx"`);
    assert.equal(csvCell(-0.5), '-0.5');
    assert.equal(csvCell('rollout/reward/mean'), 'rollout/reward/mean');
    assert.equal(csvCell(undefined), '');
  });
});
