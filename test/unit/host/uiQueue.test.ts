import assert from 'node:assert/strict';
// @ts-expect-error: the host harness is plain JavaScript without declarations.
import { uiQueue } from '../../host/lib/ui-queue.mjs';

const check = (group: string, name: string) => ({ group, name });
type Check = ReturnType<typeof check>;

function drain(queue: { take(): Check[] | undefined }): string[][] {
  const taken: string[][] = [];
  for (let group = queue.take(); group; group = queue.take()) taken.push(group.map((c) => `${c.group}:${c.name}`));
  return taken;
}

describe('host UI-check queue', () => {
  it('hands out the running-job groups first (budget before jobs, which stops the job), then the longest, then the rest in file order', () => {
    const files = ['aws.mjs', 'budget-cleanup.mjs', 'jobs.mjs', 'replay.mjs', 'signal.mjs', 'walkthrough.mjs', 'zeta.mjs'];
    const checks = files.flatMap((file) => [check(file, 'one'), check(file, 'two')]);
    const order = drain(uiQueue(checks)).map((group) => group[0].split(':')[0]);
    assert.deepEqual(order, ['budget-cleanup.mjs', 'jobs.mjs', 'walkthrough.mjs', 'signal.mjs', 'aws.mjs', 'replay.mjs', 'zeta.mjs']);
  });

  it('keeps each group whole and its checks in their order, even when a group is listed in two runs', () => {
    const checks = [check('a.mjs', '1'), check('b.mjs', '1'), check('a.mjs', '2'), check('b.mjs', '2')];
    assert.deepEqual(drain(uiQueue(checks)), [
      ['a.mjs:1', 'a.mjs:2'],
      ['b.mjs:1', 'b.mjs:2'],
    ]);
  });

  it('is shared: two sessions taking from one queue never get the same group', () => {
    const queue = uiQueue(['a.mjs', 'b.mjs', 'c.mjs'].map((file) => check(file, 'x')));
    const first = queue.take();
    const second = queue.take();
    const third = queue.take();
    assert.deepEqual([first, second, third].map((g) => g[0].group).sort(), ['a.mjs', 'b.mjs', 'c.mjs']);
    assert.equal(queue.take(), undefined);
  });
});
