import { createHash } from 'node:crypto';

/** One page of a listing: its items and the token of the next page (undefined or empty after the last). */
export interface Page<T> {
  items: readonly T[];
  next?: string;
}

/** Items left for a whole load that reads several listings (a run's every metric): one hostile listing cannot take them all. */
export class ItemBudget {
  constructor(public left: number) {}
}

export interface PageLimits {
  /** What is listed, as the sentence names it: "MLflow metrics/get-history of rollout/reward/mean at https://…". */
  what: string;
  signal?: AbortSignal;
  /** Pages at most (default 1,000). */
  maxPages?: number;
  /** Items at most (default 1,000,000). */
  maxItems?: number;
  /** Empty pages in a row that still carry a next token before the listing is refused (default 10). */
  maxEmptyPages?: number;
  /** Shared by the listings of one load; each item taken from it too. */
  budget?: ItemBudget;
  /** The service ends this listing by sending back the token it was sent (GetLogEvents): that ends it quietly. */
  repeatEnds?: boolean;
}

type Refusal = 'repeated-token' | 'empty-pages' | 'too-many-pages' | 'too-many-items';

/** A listing the server would not end, or one past its caps: one sentence, and how many items came before it. */
export class PaginationError extends Error {
  override readonly name = 'PaginationError';
  constructor(
    readonly reason: Refusal,
    message: string,
    readonly itemsRead: number,
  ) {
    super(message);
  }
}

const DEFAULT_PAGES = 1_000;
const DEFAULT_ITEMS = 1_000_000;
const DEFAULT_EMPTY = 10;

/** Tokens are remembered by hash: a server sending megabyte tokens cannot grow the set of seen ones. */
const digest = (token: string) => createHash('sha256').update(token).digest('base64');

/**
 * Every page of a listing, one at a time: stops with a PaginationError on a token seen before (a loop), on a run of
 * empty pages, and past the page and item caps, and checks the signal before each request.
 */
export async function* paginate<T>(
  fetchPage: (token: string | undefined, signal?: AbortSignal) => Promise<Page<T>>,
  limits: PageLimits,
): AsyncGenerator<readonly T[]> {
  const maxPages = limits.maxPages ?? DEFAULT_PAGES;
  const maxItems = limits.maxItems ?? DEFAULT_ITEMS;
  const maxEmpty = limits.maxEmptyPages ?? DEFAULT_EMPTY;
  const seen = new Set<string>();
  let token: string | undefined;
  let pages = 0;
  let items = 0;
  let empty = 0;
  const refuse = (reason: Refusal, why: string) =>
    new PaginationError(reason, `Stopped reading ${limits.what} after ${pages} pages and ${items} items: ${why}`, items);
  for (;;) {
    limits.signal?.throwIfAborted();
    if (pages >= maxPages) throw refuse('too-many-pages', `more than ${maxPages} pages is more than any real listing has.`);
    const page = await fetchPage(token, limits.signal);
    pages++;
    const taken = page.items.length;
    if (items + taken > maxItems) throw refuse('too-many-items', `more than ${maxItems} items is more than this reader keeps.`);
    if (limits.budget) {
      if (taken > limits.budget.left) throw refuse('too-many-items', 'the load as a whole passed its cap on items.');
      limits.budget.left -= taken;
    }
    items += taken;
    if (taken) yield page.items;
    const next = page.next || undefined;
    if (next === undefined) return;
    if (limits.repeatEnds && next === token) return;
    const key = digest(next);
    if (seen.has(key)) throw refuse('repeated-token', 'the server sent a page token it had sent before, so the listing would never end.');
    seen.add(key);
    empty = taken ? 0 : empty + 1;
    if (empty >= maxEmpty) throw refuse('empty-pages', `${empty} empty pages in a row that each promised another.`);
    token = next;
  }
}

/** Every item of a paginated listing, one by one, under the same limits. */
export async function* paginateItems<T>(
  fetchPage: (token: string | undefined, signal?: AbortSignal) => Promise<Page<T>>,
  limits: PageLimits,
): AsyncGenerator<T> {
  for await (const items of paginate(fetchPage, limits)) yield* items;
}
