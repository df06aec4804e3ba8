// What the contagion self-test's writer leaves and how it fails: shared by the writer and the harness suite that checks it.

/** The scenario file the writer leaves beside the fixture's (as the replay board's "save as named scenario" does). */
export const LEFTOVER = ['reward-scenarios', 'board.mtrl-reward.json'] as const;
/** The writer's failure: thrown on purpose after the write, before any clean-up. */
export const DELIBERATE_FAILURE = 'deliberate failure after writing a scenario file (contagion self-test)';
/** The lens the fixture's scenario files give above `class SupportGame`: the reader's expectation. */
export const FIXTURE_LENS = 'ideal 1.00 \u00b7 shortcut 0.25 \u00b7 gave-up 0.00 \u00b7 \u2713 5/5';
