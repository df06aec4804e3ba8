import { strict as assert } from 'node:assert';
import { outcomeOf } from '../../../../src/core/rollouts/stats';
import { isSolved, isZeroAdvantage, packVerdictNote, verdictText } from '../../../../src/core/rollouts/verdict';
import type { Transcript } from '../../../../src/core/transcript/model';
import { distinctPart, distinctParts } from '../../../../src/core/text/distinct';

describe('verdicts (one definition for every surface)', () => {
  it('solved is reward ≥ the success threshold, float noise forgiven', () => {
    assert.deepEqual(
      [isSolved(1), isSolved(1.3), isSolved(0.75), isSolved(0.75, 0.75), isSolved(0.1 + 0.2, 0.3), isSolved(undefined)],
      [true, true, false, true, true, false],
    );
  });

  it('partial credit reads "partial 0.75", and a pack verdict that differs is said beside', () => {
    assert.equal(verdictText({ solved: false, reward: 0.75 }), 'partial 0.75');
    assert.equal(verdictText({ solved: false, reward: -0.5 }), 'not solved');
    assert.equal(verdictText({ solved: true, reward: 1.3 }), 'solved');
    assert.equal(packVerdictNote({ solved: false, env: { pack: 'wordle', solved: true } }), 'solved in game, below threshold');
    assert.equal(packVerdictNote({ solved: true, env: { pack: 'wordle', solved: true } }), undefined);
    assert.equal(packVerdictNote({ solved: true }), undefined);
  });

  it("the board's outcome and the verdict's words agree on partial credit, float noise included", () => {
    const played = (reward: number): Transcript => ({
      id: 'r',
      groupKey: 'ticket',
      status: 'completed',
      source: 'trace',
      task: { prompt: 'Resolve the ticket.' },
      reward,
      solved: isSolved(reward),
      turns: [{ toolCalls: [{ name: 'take_support_action', arguments: {} }] }],
    });
    assert.deepEqual(
      [0.75, 1e-12, 0, -0.5].map((r) => [outcomeOf(played(r)), verdictText(played(r))]),
      [
        ['partial', 'partial 0.75'],
        ['lost', 'not solved'],
        ['lost', 'not solved'],
        ['lost', 'not solved'],
      ],
    );
  });

  it('zero advantage: two or more rollouts, every reward equal', () => {
    assert.deepEqual(
      [isZeroAdvantage([1, 1]), isZeroAdvantage([0.3, 0.1 + 0.2]), isZeroAdvantage([1]), isZeroAdvantage([1, 0.75])],
      [true, true, false, false],
    );
  });
});

describe('distinct parts of labels (the Jobs view and the board cut alike)', () => {
  const tickets = [
    "Resolve the customer's internet outage. Customer says: My internet is not working.",
    "Resolve the customer's internet outage. Customer says: My router's WAN light is red.",
    "Resolve the customer's internet outage. Customer says: I am connected to Wi-Fi but cannot reach the internet.",
  ];

  it('cuts the template prefix the tasks share at a word, and agrees with the pairwise cut', () => {
    const parts = distinctParts(tickets, ' ');
    assert.deepEqual(
      parts.map((p) => p.rest),
      ['internet is not working.', "router's WAN light is red.", 'I am connected to Wi-Fi but cannot reach the internet.'],
    );
    assert.deepEqual(
      parts,
      tickets.map((t) => distinctPart(t, tickets, ' ')),
    );
  });

  it('keeps labels that share no word whole, and the same label twice alike', () => {
    assert.deepEqual(
      distinctParts(['CRANE', 'CRANK', 'CRANE'], ' ').map((p) => p.rest),
      ['CRANE', 'CRANK', 'CRANE'],
    );
  });
});
