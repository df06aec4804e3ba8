import { strict as assert } from 'node:assert';
import { ItemBudget, paginate, PaginationError, type Page } from '../../../src/aws/paginate';

/** A listing that answers the scripted pages in order, counting the requests. */
function scripted(pages: Page<number>[]) {
  const sent: (string | undefined)[] = [];
  return {
    sent,
    fetch: async (token: string | undefined): Promise<Page<number>> => {
      sent.push(token);
      return pages[sent.length - 1] ?? { items: [] };
    },
  };
}

async function read(fetch: (token: string | undefined) => Promise<Page<number>>, limits: Parameters<typeof paginate>[1]) {
  const items: number[] = [];
  try {
    for await (const page of paginate(fetch, limits)) items.push(...page);
    return { items };
  } catch (error) {
    return { items, error };
  }
}

describe('paginate', () => {
  it('follows tokens to the last page', async () => {
    const s = scripted([{ items: [1], next: 'a' }, { items: [2], next: 'b' }, { items: [3] }]);
    assert.deepEqual(await read(s.fetch, { what: 'x' }), { items: [1, 2, 3] });
    assert.deepEqual(s.sent, [undefined, 'a', 'b']);
  });

  it('refuses a token seen before, also in a cycle of two', async () => {
    const s = scripted([
      { items: [1], next: 'a' },
      { items: [2], next: 'b' },
      { items: [3], next: 'a' },
    ]);
    const { items, error } = await read(s.fetch, { what: 'the things' });
    assert.deepEqual(items, [1, 2, 3]);
    assert.ok(error instanceof PaginationError && error.reason === 'repeated-token');
    assert.equal(
      error.message,
      'Stopped reading the things after 3 pages and 3 items: the server sent a page token it had sent before, so the listing would never end.',
    );
  });

  it('ends quietly on the token sent coming back when the service means that as the end', async () => {
    const s = scripted([
      { items: [1], next: 'a' },
      { items: [2], next: 'a' },
    ]);
    assert.deepEqual(await read(s.fetch, { what: 'x', repeatEnds: true }), { items: [1, 2] });
  });

  it('caps pages, items, empty runs and a shared budget', async () => {
    const endless = async (token: string | undefined) => ({ items: [1, 2], next: `${token ?? ''}+` });
    assert.equal(((await read(endless, { what: 'x', maxPages: 5 })).error as PaginationError).reason, 'too-many-pages');
    assert.equal(((await read(endless, { what: 'x', maxItems: 7 })).error as PaginationError).reason, 'too-many-items');
    const empty = async (token: string | undefined) => ({ items: [], next: `${token ?? ''}+` });
    assert.equal(((await read(empty, { what: 'x', maxEmptyPages: 3 })).error as PaginationError).reason, 'empty-pages');
    const budget = new ItemBudget(5);
    const first = await read(endless, { what: 'x', budget });
    assert.deepEqual(first.items, [1, 2, 1, 2]);
    assert.equal(budget.left, 1);
  });

  it('stops before the next request once the signal aborts', async () => {
    const controller = new AbortController();
    let calls = 0;
    const fetch = async (token: string | undefined) => {
      if (++calls === 2) controller.abort();
      return { items: [calls], next: `${token ?? ''}+` };
    };
    const { error } = await read(fetch, { what: 'x', signal: controller.signal });
    assert.equal((error as Error).name, 'AbortError');
    assert.equal(calls, 2);
  });
});
