import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { call, type TestServer } from '../../helpers/server.js';
import type { World } from '../../helpers/world.js';
import { startWorld } from '../../helpers/fixture.js';
import { orderBody, placeOrder } from './support.js';

let server: TestServer;
let world: World;

beforeAll(async () => ({ server, world } = await startWorld()));
afterAll(() => server?.close());

async function client(key: string, email: string, phone: string) {
  const res = await call(server, 'POST', '/partner/clients', {
    key,
    body: { firstName: 'Ana', lastName: 'Silva', email, phone },
  });
  if (res.status !== 201) throw new Error(res.text);
  return res.body as { id: number; email: string };
}

const list = (key: string, query: Record<string, string | number> = {}) =>
  call(server, 'GET', '/partner/clients', { key, query });
const ids = (res: { body: { data: { id: number }[] } }) => res.body.data.map((c) => c.id);

describe('GET /partner/clients', () => {
  let atA: { id: number }, atB: { id: number }, branchWide: { id: number }, other: { id: number };
  beforeAll(async () => {
    atA = await client(world.keys.operatorA, 'ana.a@example.com', '+351910000001');
    atB = await client(world.keys.operatorB, 'ana.b@example.com', '+351910000002');
    branchWide = await client(world.keys.branch, 'shared@example.com', '+351910000003');
    // Another branch may hold the same email: a filter must not reach it.
    other = await client(world.keys.otherBranch, 'ana.a@example.com', '+351910000001');
  });

  it("pages the clients of the key's scope with the list envelope", async () => {
    const all = await list(world.keys.branch);
    expect(all.status, all.text).toBe(200);
    expect(ids(all)).toEqual([atA.id, atB.id, branchWide.id]);
    expect(all.body.meta).toEqual({ total: 3, skip: 0, limit: 25, nextCursor: null });
    expect(all.body.data[0]).toEqual({
      id: atA.id,
      firstName: 'Ana',
      lastName: 'Silva',
      email: 'ana.a@example.com',
      phone: '+351910000001',
      createdAt: expect.any(String),
      updatedAt: expect.any(String),
    });
    const page = await list(world.keys.branch, { skip: 1, limit: 1, sort: '[["id","DESC"]]' });
    expect(ids(page)).toEqual([atB.id]);
    expect(page.body.meta).toEqual({ total: 3, skip: 1, limit: 1, nextCursor: expect.any(String) });
  });

  it('filters by exact email (any case) or phone', async () => {
    const byEmail = await list(world.keys.branch, { filter: JSON.stringify({ email: 'ANA.A@Example.com' }) });
    expect(ids(byEmail)).toEqual([atA.id]);
    expect(ids(await list(world.keys.branch, { filter: JSON.stringify({ phone: '+351910000002' }) }))).toEqual([
      atB.id,
    ]);
    expect(ids(await list(world.keys.branch, { filter: JSON.stringify({ email: 'ana' }) }))).toEqual([]);
    const both = await list(world.keys.branch, {
      filter: JSON.stringify({ email: 'ana.a@example.com', phone: '+351910000002' }),
    });
    expect(both.body).toEqual({ data: [], meta: { total: 0, skip: 0, limit: 25, nextCursor: null } });
  });

  it("is scoped like the other client endpoints: an operator sees its exchanges' clients, another branch its own", async () => {
    expect(ids(await list(world.keys.operatorA))).toEqual([atA.id, branchWide.id]);
    expect(ids(await list(world.keys.operatorB))).toEqual([atB.id, branchWide.id]);
    expect(ids(await list(world.keys.operatorB, { filter: JSON.stringify({ email: 'ana.a@example.com' }) }))).toEqual(
      [],
    );
    expect(ids(await list(world.keys.otherBranch, { filter: JSON.stringify({ email: 'ana.a@example.com' }) }))).toEqual(
      [other.id],
    );
  });

  it('answers 400 for an unknown filter or sort, a bad value or a page over 100; 403 for a public key; 401 without a key', async () => {
    const unknown = await list(world.keys.branch, { filter: JSON.stringify({ firstName: 'Ana' }) });
    expect(unknown.status).toBe(400);
    expect(unknown.body.errors).toEqual({ 'filter.firstName': 'notAllowed' });
    expect((await list(world.keys.branch, { filter: JSON.stringify({ email: 5 }) })).body.errors).toEqual({
      'filter.email': 'invalidValue',
    });
    expect((await list(world.keys.branch, { filter: JSON.stringify({ phone: '' }) })).status).toBe(400);
    expect((await list(world.keys.branch, { sort: '[["email","ASC"]]' })).status).toBe(400);
    expect((await list(world.keys.branch, { limit: 101 })).status).toBe(400);
    expect((await list(world.keys.public)).status).toBe(403);
    expect((await call(server, 'GET', '/partner/clients')).status).toBe(401);
  });
});

describe('GET /partner/orders?filter={"hashedId":…}', () => {
  it('finds the one order with that hashed id, in scope only', async () => {
    const mine = await placeOrder(server, world.keys.operatorA, orderBody(world));
    await placeOrder(server, world.keys.operatorA, orderBody(world));
    const filter = JSON.stringify({ hashedId: mine.hashedId });
    const found = await call(server, 'GET', '/partner/orders', { key: world.keys.branch, query: { filter } });
    expect(found.status, found.text).toBe(200);
    expect(found.body.data.map((o: { id: number }) => o.id)).toEqual([mine.id]);
    expect(found.body.meta.total).toBe(1);
    for (const key of [world.keys.otherBranch, world.keys.operatorB]) {
      const res = await call(server, 'GET', '/partner/orders', { key, query: { filter } });
      expect(res.body).toEqual({ data: [], meta: { total: 0, skip: 0, limit: 25, nextCursor: null } });
    }
    const combined = await call(server, 'GET', '/partner/orders', {
      key: world.keys.branch,
      query: { filter: JSON.stringify({ hashedId: mine.hashedId, status: 'CANCEL' }) },
    });
    expect(combined.body.data).toEqual([]);
  });

  it('answers 400 for a hashedId that is not a string', async () => {
    const res = await call(server, 'GET', '/partner/orders', {
      key: world.keys.branch,
      query: { filter: '{"hashedId":12}' },
    });
    expect(res.status).toBe(400);
    expect(res.body.errors).toEqual({ 'filter.hashedId': 'invalidValue' });
  });
});
