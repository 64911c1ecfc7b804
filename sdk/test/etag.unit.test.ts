import { describe, expect, it } from 'vitest';
import { createClient } from '../src/index.js';

/** A fake API: each path's body and tag; answers 304 to a matching If-None-Match, as the server does. */
function fakeApi() {
  const bodies = new Map<string, { body: unknown; tag: string }>();
  const seen: { path: string; ifNoneMatch: string | null; status: number }[] = [];
  const fetch = async (request: Request) => {
    const path = new URL(request.url).pathname.replace('/api/v1/partner/exchanges/', '');
    const entry = bodies.get(path)!;
    const ifNoneMatch = request.headers.get('if-none-match');
    const status = ifNoneMatch === entry.tag ? 304 : 200;
    seen.push({ path, ifNoneMatch, status });
    return status === 304
      ? new Response(null, { status, headers: { etag: entry.tag } })
      : new Response(JSON.stringify(entry.body), {
          status,
          headers: { etag: entry.tag, 'content-type': 'application/json' },
        });
  };
  return { bodies, seen, fetch };
}

describe('etagCache', () => {
  it('keeps at most maxEntries answers, forgetting the least recently used first', async () => {
    const api = fakeApi();
    for (const id of ['1', '2', '3']) api.bodies.set(id, { body: { id: Number(id) }, tag: `"t${id}"` });
    const pxs = createClient({
      baseUrl: 'http://pxs.test',
      apiKey: 'sk_branch_x',
      fetch: api.fetch,
      retry: false,
      etagCache: { maxEntries: 2 },
    });
    await pxs.getExchange(1);
    await pxs.getExchange(2);
    await pxs.getExchange(1); // 1 is now the most recent
    await pxs.getExchange(3); // so 2 goes
    expect((await pxs.getExchange(1)).id).toBe(1);
    expect((await pxs.getExchange(2)).id).toBe(2);
    expect(api.seen.map((s) => `${s.path} ${s.ifNoneMatch ?? '-'} ${s.status}`)).toEqual([
      '1 - 200',
      '2 - 200',
      '1 "t1" 304',
      '3 - 200',
      '1 "t1" 304',
      '2 - 200',
    ]);
  });

  it('is per client, and takes only a positive whole maxEntries', async () => {
    const api = fakeApi();
    api.bodies.set('1', { body: { id: 1 }, tag: '"t1"' });
    const one = createClient({ baseUrl: 'http://pxs.test', apiKey: 'sk_branch_x', fetch: api.fetch, etagCache: true });
    const other = createClient({
      baseUrl: 'http://pxs.test',
      apiKey: 'sk_branch_y',
      fetch: api.fetch,
      etagCache: true,
    });
    await one.getExchange(1);
    await other.getExchange(1);
    expect(api.seen.map((s) => s.status)).toEqual([200, 200]);
    for (const maxEntries of [0, -1, 1.5, Number.NaN]) {
      expect(
        () => createClient({ baseUrl: 'http://pxs.test', apiKey: 'sk_branch_x', etagCache: { maxEntries } }),
        String(maxEntries),
      ).toThrow(RangeError);
    }
  });
});
