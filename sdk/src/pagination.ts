/** One page of a list: `meta.nextCursor` is present when the API pages by cursor. */
export interface Page<T> {
  data: T[];
  meta: { total?: number; skip?: number; limit?: number; nextCursor?: string | null };
}

/**
 * Every item of a paginated list, page by page. It follows `meta.nextCursor` (sent back as `cursor`) when the API
 * gives one, and otherwise advances `skip` until `meta.total` is reached or a page comes back short.
 */
export async function* paginate<T>(
  fetchPage: (page: { skip?: number; cursor?: string }) => Promise<Page<T>>,
  start: { skip?: number } = {},
): AsyncGenerator<T, void, undefined> {
  let skip = start.skip ?? 0;
  let cursor: string | undefined;
  for (;;) {
    const page = await fetchPage(cursor !== undefined ? { cursor } : { skip });
    for (const item of page.data) yield item;
    if (page.data.length === 0) return;
    if (page.meta.nextCursor !== undefined) {
      if (page.meta.nextCursor === null || page.meta.nextCursor === '') return;
      cursor = page.meta.nextCursor;
      continue;
    }
    skip += page.data.length;
    if (page.meta.total !== undefined ? skip >= page.meta.total : page.data.length < (page.meta.limit ?? Infinity))
      return;
  }
}

/**
 * The query of one page: the caller's, with the page's `skip` or its `cursor`. A cursor replaces the skip the
 * caller started from, since the API refuses the two together.
 */
export function pageQuery<Q extends { skip?: number }>(
  query: Q,
  page: { skip?: number; cursor?: string },
): Q & { cursor?: string } {
  const { skip: _start, ...rest } = query;
  return (page.cursor !== undefined ? { ...rest, cursor: page.cursor } : { ...rest, skip: page.skip }) as Q & {
    cursor?: string;
  };
}
