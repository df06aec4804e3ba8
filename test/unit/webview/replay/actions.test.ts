import { strict as assert } from 'node:assert';
import { actionRows, type ActionTable } from '../../../../webview/replay/actions';

/** 10 above- and 10 below-average rollouts: restarting the router goes with the worse ones. */
const table: ActionTable = {
  above: 10,
  below: 10,
  actions: [
    { tool: 'take_support_action', above: 10, below: 10 },
    { tool: 'take_support_action', argument: 'action', value: 'check_outage', above: 9, below: 8 },
    { tool: 'take_support_action', argument: 'action', value: 'restart_router', above: 1, below: 7 },
    { tool: 'take_support_action', argument: 'action', value: 'check_account_config', above: 6, below: 2 },
  ],
};

describe('action table rows', () => {
  it('puts the most telling call first, whichever way it leans', () => {
    const rows = actionRows(table);
    assert.deepEqual(
      rows.map((r) => [r.action, Math.round(r.difference * 100)]),
      [
        ['take_support_action action=restart_router', -60],
        ['take_support_action action=check_account_config', 40],
        ['take_support_action action=check_outage', 10],
        ['take_support_action', 0],
      ],
    );
    assert.equal(rows[0].aboveShare, 0.1);
    assert.equal(rows[0].belowShare, 0.7);
  });

  it('sorts by each column both ways, ties by name', () => {
    assert.deepEqual(
      actionRows(table, 'below', true).map((r) => r.belowShare),
      [1, 0.8, 0.7, 0.2],
    );
    assert.deepEqual(
      actionRows(table, 'above', false).map((r) => r.aboveShare),
      [0.1, 0.6, 0.9, 1],
    );
    assert.equal(actionRows(table, 'action', false)[0].action, 'take_support_action');
    assert.equal(actionRows(table, 'action', true)[0].action, 'take_support_action action=restart_router');
  });

  it('shows non-text argument values as compact JSON and reads no share from an empty side', () => {
    const rows = actionRows({ above: 0, below: 3, actions: [{ tool: 'sql', argument: 'limit', value: 10, above: 0, below: 3 }] });
    assert.equal(rows[0].action, 'sql limit=10');
    assert.equal(rows[0].aboveShare, 0);
    assert.equal(rows[0].belowShare, 1);
  });
});
