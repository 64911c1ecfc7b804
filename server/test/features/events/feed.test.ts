import pg from 'pg';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { usingPostgres } from '../../helpers/database.js';
import { startWorld } from '../../helpers/fixture.js';
import { call, type TestServer } from '../../helpers/server.js';
import type { StaffName } from '../../helpers/staff.js';
import type { World } from '../../helpers/world.js';
import { orderBody } from '../orders/support.js';
import { eventually, register, startReceiver, worker, type Receiver } from '../webhooks/support.js';

let server: TestServer;
let world: World;
let tokens: Record<StaffName, string>;
let receiver: Receiver;
beforeAll(async () => {
  ({ server, world, tokens } = await startWorld());
  receiver = await startReceiver();
}, 180_000);
afterAll(async () => {
  await receiver?.close();
  await server?.close();
});

interface Page {
  data: { id: string; event: string; data: { id: number; status?: string } }[];
  next: string;
  hasMore: boolean;
}

/** Reads the whole feed from `after`, `limit` at a time; returns the envelopes as the raw JSON text of each. */
async function readFeed(key: string, limit: number, after?: string): Promise<{ envelopes: string[]; next: string }> {
  const envelopes: string[] = [];
  let cursor = after;
  for (;;) {
    const res = await call(server, 'GET', '/partner/events', {
      key,
      query: { limit, ...(cursor !== undefined && { after: cursor }) },
    });
    expect(res.status).toBe(200);
    const page = res.body as Page;
    envelopes.push(...rawEnvelopes(res.text));
    expect(rawEnvelopes(res.text)).toHaveLength(page.data.length);
    cursor = page.next;
    if (!page.hasMore) return { envelopes, next: page.next };
  }
}

/** The envelopes of a page as sent, split at the top level of the `data` array. */
function rawEnvelopes(text: string): string[] {
  const start = text.indexOf('[') + 1;
  const out: string[] = [];
  let depth = 0;
  let from = start;
  let inString = false;
  for (let i = start; i < text.length; i++) {
    const ch = text[i];
    if (inString) {
      if (ch === '\\') i++;
      else if (ch === '"') inString = false;
      continue;
    }
    if (ch === '"') inString = true;
    else if (ch === '{' || ch === '[') depth++;
    else if (ch === '}' || ch === ']') {
      if (depth === 0) {
        if (i > from) out.push(text.slice(from, i));
        return out;
      }
      depth--;
      if (depth === 0) {
        out.push(text.slice(from, i + 1));
        from = i + 2;
      }
    }
  }
  return out;
}

describe('GET /partner/events', () => {
  it('after 200 changes, pages through each webhook envelope once, in order, equal to what the receiver got', async () => {
    const { next: start } = await readFeed(world.keys.branch, 1000);
    await register(server, world.keys.branch, receiver.url);
    const expected: string[] = [];
    for (let i = 0; expected.length < 200; i++) {
      const order = await call(server, 'POST', '/partner/orders', {
        key: world.keys.branch,
        body: orderBody(world, { clientAmount: 100 + i }),
      });
      expect(order.status).toBe(201);
      expected.push(`order.created ${order.body.id} ORDERINIT`);
      if (i % 2 === 0) {
        expect(
          (await call(server, 'POST', `/partner/orders/${order.body.id}/cancel`, { key: world.keys.branch })).status,
        ).toBe(200);
        expected.push(`order.status_changed ${order.body.id} CANCEL`, `order.cancelled ${order.body.id} CANCEL`);
      }
    }
    const w = await worker(server);
    try {
      await receiver.waitFor(expected.length, 60_000);
    } finally {
      await w.stop();
    }
    const { envelopes } = await readFeed(world.keys.branch, 37, start);
    const parsed = envelopes.map((e) => JSON.parse(e) as Page['data'][number]);
    expect(parsed.map((e) => `${e.event} ${e.data.id} ${e.data.status}`)).toEqual(expected);
    expect(new Set(parsed.map((e) => e.id)).size).toBe(envelopes.length);
    // The same bytes the webhook deliveries carried, each once.
    expect([...envelopes].sort()).toEqual(receiver.received.map((r) => r.body).sort());
  }, 180_000);

  it("another branch's key sees none of it; an operator sees only its exchanges' orders; offer changes are branch-wide", async () => {
    const { envelopes: before } = await readFeed(world.keys.otherBranch, 1000);
    const b = await call(server, 'POST', '/partner/orders', {
      key: world.keys.operatorB,
      body: orderBody(world, { cashbox: { id: world.exchanges.B } }),
    });
    expect(b.status).toBe(201);
    const patched = await call(server, 'PATCH', `/admin/offers/${world.offers.aUsdEur}`, {
      token: tokens.admin1,
      body: { rate: '0.9216' },
    });
    expect(patched.status).toBe(200);
    const { envelopes: after } = await readFeed(world.keys.otherBranch, 1000);
    expect(after).toEqual(before);
    const operatorA = (await readFeed(world.keys.operatorA, 1000)).envelopes.map((e) => JSON.parse(e));
    expect(operatorA.some((e) => e.event === 'order.created' && e.data.id === b.body.id)).toBe(false);
    expect(operatorA.some((e) => e.event === 'offer.updated' && e.data.id === world.offers.aUsdEur)).toBe(true);
    const operatorB = (await readFeed(world.keys.operatorB, 1000)).envelopes.map((e) => JSON.parse(e));
    expect(operatorB.some((e) => e.event === 'order.created' && e.data.id === b.body.id)).toBe(true);
    expect(operatorB.filter((e) => e.event.startsWith('order.')).every((e) => e.data.id === b.body.id)).toBe(true);
  });

  it('answers an empty page with the same cursor at the end of the feed', async () => {
    const { next } = await readFeed(world.keys.branch, 1000);
    const res = await call(server, 'GET', '/partner/events', { key: world.keys.branch, query: { after: next } });
    expect(res.body).toEqual({ data: [], next, hasMore: false });
  });

  it('refuses a bad cursor or limit (400) and a public key (403)', async () => {
    const queries: Record<string, string | number>[] = [
      { after: 'abc' },
      { after: '1.2.3' },
      { limit: 0 },
      { limit: 1001 },
    ];
    for (const query of queries) {
      const res = await call(server, 'GET', '/partner/events', { key: world.keys.branch, query });
      expect(res.status, JSON.stringify(query)).toBe(400);
    }
    expect((await call(server, 'GET', '/partner/events', { key: world.keys.public })).status).toBe(403);
    expect((await call(server, 'GET', '/partner/events')).status).toBe(401);
  });

  it('a key without orders:read sees offer events only', async () => {
    await server.db
      .updateTable('staff_users')
      .set({ permissions: ['clients:read'] })
      .where('id', '=', world.staff.readOnlyA.id)
      .execute();
    await eventually(async () => {
      const res = await call(server, 'GET', '/partner/events', { key: world.keys.readOnlyA, query: { limit: 1000 } });
      return (
        res.status === 200 &&
        (res.body as Page).data.every((e) => e.event.startsWith('offer.')) &&
        (res.body as Page).data.length > 0
      );
    });
  });

  it.skipIf(!usingPostgres)(
    'never moves past an event whose transaction commits after a later one (PostgreSQL)',
    async () => {
      const { next: start } = await readFeed(world.keys.branch, 1000);
      const client = new pg.Client({ connectionString: server.database.url });
      await client.connect();
      try {
        // A slow writer: its event is written first, and committed last.
        await client.query('begin');
        await client.query(
          `insert into events (id, event, branch_id, exchange_id, is_order_event, body)
        values (gen_random_uuid(), 'offer.updated', $1, $2, false, '{"event":"offer.updated","slow":true,"data":{}}')`,
          [world.branches.b1, world.exchanges.A],
        );
        const order = await call(server, 'POST', '/partner/orders', { key: world.keys.branch, body: orderBody(world) });
        expect(order.status).toBe(201);
        const meanwhile = await readFeed(world.keys.branch, 1000, start);
        expect(meanwhile.envelopes).toEqual([]);
        expect(meanwhile.next).toBe(start);
        await client.query('commit');
        const after = (await readFeed(world.keys.branch, 1000, start)).envelopes.map((e) => JSON.parse(e));
        expect(after.map((e) => e.event)).toEqual(['offer.updated', 'order.created']);
        expect(after[1].data.id).toBe(order.body.id);
      } finally {
        await client.end();
      }
    },
  );

  // The barrier came from pg_stat_activity, which may not show yet a transaction the snapshot counts as running:
  // a reader following `next` during this load moved past a third of the orders' events, for good.
  it.skipIf(!usingPostgres)(
    'a reader following next while orders are written in parallel misses none (PostgreSQL)',
    async () => {
      let cursor = (await readFeed(world.keys.branch, 1000)).next;
      const seen = new Set<number>();
      const created: number[] = [];
      let writing = true;
      const writers = Promise.all(
        Array.from({ length: 6 }, async (_, w) => {
          for (let i = 0; i < 25; i++) {
            const key = `feed-race-${w}-${i}-${Date.now()}`;
            const res = await call(server, 'POST', '/partner/orders', {
              key: world.keys.branch,
              body: orderBody(world),
              headers: { 'idempotency-key': key },
            });
            expect(res.status).toBe(201);
            created.push(res.body.id);
          }
        }),
      ).finally(() => {
        writing = false;
      });
      const reader = (async () => {
        for (let quiet = 0; writing || quiet < 3;) {
          const res = await call(server, 'GET', '/partner/events', {
            key: world.keys.branch,
            query: { limit: 7, after: cursor },
          });
          const page = res.body as Page;
          for (const e of page.data) if (e.event === 'order.created') seen.add(e.data.id as number);
          cursor = page.next;
          quiet = !writing && page.data.length === 0 ? quiet + 1 : 0;
        }
      })();
      await writers;
      await reader;
      expect(created).toHaveLength(150);
      expect(created.filter((id) => !seen.has(id))).toEqual([]);
    },
    120_000,
  );
});
