import { strict as assert } from 'node:assert';
import { lintSdkImports, usesRftHandler } from '../../../../src/core/lint/sdkImports';

describe('agent lint: the sagemaker.train.rft imports', () => {
  it('fixes `rft_handler` by aliasing the real name, keeps an existing alias, and leaves sagemaker_rft_handler alone', () => {
    const [plain] = lintSdkImports('from sagemaker.train.rft import (\n    RolloutFeedbackClient,\n    rft_handler,\n)\n');
    assert.deepEqual(plain.range, { start: { line: 2, character: 4 }, end: { line: 2, character: 15 } });
    assert.equal(plain.fix?.edits[0].newText, 'sagemaker_rft_handler as rft_handler');
    const [aliased] = lintSdkImports('from sagemaker.train.rft import rft_handler as handler\n');
    assert.equal(aliased.fix?.edits[0].newText, 'sagemaker_rft_handler');
    assert.deepEqual(lintSdkImports('from sagemaker.train.rft import sagemaker_rft_handler\n'), []);
    assert.ok(usesRftHandler('from sagemaker.train.rft import rft_handler'), 'a file importing only the wrong name is still linted');
    assert.ok(!usesRftHandler('import sagemaker\n'));
  });
});
