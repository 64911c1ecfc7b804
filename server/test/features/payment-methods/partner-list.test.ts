import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { call, type TestServer } from '../../helpers/server.js';
import type { World } from '../../helpers/world.js';
import { startWorld } from '../../helpers/fixture.js';
import { orderBody } from '../orders/support.js';

let server: TestServer;
let world: World;

beforeAll(async () => ({ server, world } = await startWorld()));
afterAll(() => server?.close());

type Method = { id: number; name: string; kind: string; exchangeId: number | null; branchId: number };
const list = (key: string, query?: Record<string, string>) =>
  call<{ data: Method[]; meta: { total: number } }>(server, 'GET', '/partner/payment-methods', { key, query });
const ids = async (key: string, query?: Record<string, string>) =>
  (await list(key, query)).body.data.map((m) => m.id).sort((a, b) => a - b);

describe('GET /partner/payment-methods', () => {
  it("lists the branch's methods for every office and those of the exchanges in the key's scope", async () => {
    const { cash1, cardA, cardB, cashC } = world.paymentMethods;
    expect(await ids(world.keys.branch)).toEqual([cash1, cardA, cardB].sort((a, b) => a - b));
    // An operator's personal key on A: not B's card, which no order of its may name.
    expect(await ids(world.keys.operatorA)).toEqual([cash1, cardA].sort((a, b) => a - b));
    expect(await ids(world.keys.otherBranch)).toEqual([cashC]);
    const res = await list(world.keys.operatorA);
    expect(res.status).toBe(200);
    expect(res.body.meta.total).toBe(2);
    expect(res.body.data.find((m) => m.id === cash1)).toEqual({
      id: cash1,
      branchId: world.branches.b1,
      name: 'Cash',
      kind: 'cash',
      exchangeId: null,
      currencyId: null,
      isActive: true,
      createdAt: expect.any(String),
      updatedAt: expect.any(String),
    });
  });

  it('filters and sorts as other lists do, and refuses an unknown filter with 400', async () => {
    const cards = await list(world.keys.branch, { filter: '{"kind":"card"}', sort: '[["name","DESC"]]' });
    expect(cards.body.data.map((m) => m.name)).toEqual(['Card at B', 'Card at A']);
    expect(await ids(world.keys.branch, { filter: `{"exchangeId":${world.exchanges.A}}` })).toEqual([
      world.paymentMethods.cardA,
    ]);
    const bad = await list(world.keys.branch, { filter: '{"branchId":1}' });
    expect(bad.status).toBe(400);
  });

  it('is for secret keys: a public key gets 403', async () => {
    const res = await list(world.keys.public);
    expect(res.status).toBe(403);
  });

  it('lists what order creation accepts: every listed id may be named, an unlisted one is notFound', async () => {
    const listed = await ids(world.keys.operatorA);
    for (const id of listed) {
      const res = await call(server, 'POST', '/partner/orders', {
        key: world.keys.operatorA,
        body: orderBody(world, { paymentMethodSource: { id } }),
      });
      expect(res.status, `method ${id}: ${res.text}`).toBe(201);
    }
    const unlisted = await call(server, 'POST', '/partner/orders', {
      key: world.keys.operatorA,
      body: orderBody(world, { paymentMethodSource: { id: world.paymentMethods.cardB } }),
    });
    expect(unlisted.body.errors).toEqual({ paymentMethodSource: 'notFound' });
  });
});
