import { strict as assert } from 'node:assert';
import type { ActionRow, ActionTable } from '../../../../src/core/rollouts';
import { actionLabel, sortActions } from '../../../../webview/replay/actions';

const row = (argument: string, value: string, above: number, below: number): ActionRow => ({
  tool: 'take_support_action',
  argument,
  value,
  above,
  below,
  aboveShare: above / 10,
  belowShare: below / 10,
});

/** 10 above- and 10 below-average rollouts: restarting the router goes with the worse ones. */
const table: ActionTable = {
  above: 10,
  below: 10,
  rows: [
    row('action', 'check_outage', 9, 8),
    row('action', 'close_ticket', 10, 10),
    row('action', 'restart_router', 1, 7),
    row('action', 'check_account_config', 6, 2),
  ],
};

describe('action table rows', () => {
  it('puts the most telling call first, whichever way it leans', () => {
    assert.deepEqual(
      sortActions(table).map((r) => [r.action, Math.round(r.difference * 100)]),
      [
        ['take_support_action action=restart_router', -60],
        ['take_support_action action=check_account_config', 40],
        ['take_support_action action=check_outage', 10],
        ['take_support_action action=close_ticket', 0],
      ],
    );
  });

  it('sorts by each column both ways, ties by name', () => {
    assert.deepEqual(
      sortActions(table, 'below', true).map((r) => r.row.belowShare),
      [1, 0.8, 0.7, 0.2],
    );
    assert.deepEqual(
      sortActions(table, 'above', false).map((r) => r.row.aboveShare),
      [0.1, 0.6, 0.9, 1],
    );
    assert.equal(sortActions(table, 'action', false)[0].action, 'take_support_action action=check_account_config');
    assert.equal(sortActions(table, 'action', true)[0].action, 'take_support_action action=restart_router');
  });

  it('names a call by its tool, argument and value, or the tool and its one plain value', () => {
    assert.equal(actionLabel({ tool: 'sql', argument: 'limit', value: '10' }), 'sql limit=10');
    assert.equal(actionLabel({ tool: 'guess_word', argument: '', value: 'crane' }), 'guess_word crane');
    assert.equal(actionLabel({ tool: 'reset', argument: '', value: '' }), 'reset');
  });
});
