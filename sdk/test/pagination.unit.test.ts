import { describe, expect, it } from 'vitest';
import { paginate, retryAfterMs, type Page } from '../src/index.js';

// The server pages by skip today; cursors (meta.nextCursor) are being added. The iterators must follow both.
describe('paginate', () => {
  const items = Array.from({ length: 7 }, (_, i) => i + 1);

  it('advances skip until meta.total', async () => {
    const asked: unknown[] = [];
    const pages = paginate(async (page): Promise<Page<number>> => {
      asked.push(page);
      const skip = page.skip ?? 0;
      return { data: items.slice(skip, skip + 3), meta: { total: items.length, skip, limit: 3 } };
    });
    const got: number[] = [];
    for await (const n of pages) got.push(n);
    expect(got).toEqual(items);
    expect(asked).toEqual([{ skip: 0 }, { skip: 3 }, { skip: 6 }]);
  });

  it('follows meta.nextCursor when the answer carries one, and stops on null', async () => {
    const asked: unknown[] = [];
    const pages = paginate(async (page): Promise<Page<number>> => {
      asked.push(page);
      const from = page.cursor ? Number(page.cursor.slice(2)) : 0;
      const data = items.slice(from, from + 3);
      return { data, meta: { limit: 3, nextCursor: from + 3 < items.length ? `c-${from + 3}` : null } };
    });
    const got: number[] = [];
    for await (const n of pages) got.push(n);
    expect(got).toEqual(items);
    expect(asked).toEqual([{ skip: 0 }, { cursor: 'c-3' }, { cursor: 'c-6' }]);
  });
});

describe('retryAfterMs', () => {
  it('reads delay-seconds and HTTP dates', () => {
    expect(retryAfterMs('3')).toBe(3000);
    expect(retryAfterMs(new Date(10_000).toUTCString(), 4_000)).toBe(6000);
    expect(retryAfterMs('soon')).toBeUndefined();
    expect(retryAfterMs(null)).toBeUndefined();
  });
});
