import { strict as assert } from 'node:assert';
import { budgetAction, budgetFromJobFile, parseBudget } from '../../../../src/core/jobs/budget';

describe('budget guard', () => {
  it('acts once when the cost passes the budget: notify, or stop only when the user chose it', () => {
    assert.equal(budgetAction(49.99, { dollars: 50, autoStop: false }, undefined), 'none');
    assert.equal(budgetAction(50.01, { dollars: 50, autoStop: false }, undefined), 'notify');
    assert.equal(budgetAction(50.01, { dollars: 50, autoStop: true }, undefined), 'stop');
    assert.equal(budgetAction(80, { dollars: 50, autoStop: false }, 50), 'none', 'already warned at this budget');
    assert.equal(budgetAction(80, { dollars: 75, autoStop: false }, 50), 'notify', 'a raised budget that is passed again warns again');
    assert.equal(budgetAction(undefined, { dollars: 50, autoStop: true }, undefined), 'none', 'no cost known yet');
    assert.equal(budgetAction(1000, undefined, undefined), 'none');
  });

  it('reads a budget typed by the user or written in a job file', () => {
    assert.deepEqual(parseBudget('$1,250.505'), { dollars: 1250.51 });
    assert.ok('problem' in parseBudget('0'));
    assert.ok('problem' in parseBudget('fifty'));
    assert.deepEqual(budgetFromJobFile({ Dollars: 50, AutoStop: true }), { dollars: 50, autoStop: true });
    assert.deepEqual(budgetFromJobFile({ Dollars: 50 }), { dollars: 50, autoStop: false });
    assert.equal(budgetFromJobFile(undefined), undefined);
    assert.ok(budgetFromJobFile({ Dollars: -1 }) && 'problem' in (budgetFromJobFile({ Dollars: -1 }) as object));
  });
});
