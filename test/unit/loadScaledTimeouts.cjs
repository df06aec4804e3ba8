// Each test's timeout was set from the load when the run began; a machine that got busier since stretches it by as much.
const { require: tsRequire } = require('tsx/cjs/api');
const { LOAD_AT_START_VARIABLE, loadFactor } = tsRequire('../host/lib/ceiling.ts', __filename);

module.exports.mochaHooks = {
  beforeEach() {
    const test = this.currentTest;
    const atStart = Number(process.env[LOAD_AT_START_VARIABLE]) || loadFactor();
    const now = loadFactor();
    if (test && now > atStart && test.timeout() > 0) test.timeout(Math.round((test.timeout() * now) / atStart));
  },
};
