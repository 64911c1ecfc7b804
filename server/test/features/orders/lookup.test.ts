import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startWorld } from '../../helpers/fixture.js';
import { call, type TestServer } from '../../helpers/server.js';
import type { StaffName } from '../../helpers/staff.js';
import type { World } from '../../helpers/world.js';
import { orderBody, placeOrder } from './support.js';

let server: TestServer;
let world: World;
let tokens: Record<StaffName, string>;
let client: { id: number };
let otherClient: { id: number };
const orders: Record<string, { id: number; hashedId: string }> = {};

beforeAll(async () => {
  ({ server, world, tokens } = await startWorld());
  const made = await call(server, 'POST', '/partner/clients', {
    key: world.keys.branch,
    body: { firstName: 'Maria', lastName: 'Dos_Santos', email: 'maria@example.com', phone: '+351911222333' },
  });
  client = made.body;
  otherClient = (
    await call(server, 'POST', '/partner/clients', {
      key: world.keys.otherBranch,
      body: { firstName: 'Maria', lastName: 'Other', email: 'maria@other.example', phone: '+351911222999' },
    })
  ).body;
  orders.a = await placeOrder(server, world.keys.branch, orderBody(world, { user: { id: client.id } }));
  orders.b = await placeOrder(
    server,
    world.keys.branch,
    orderBody(world, { cashbox: { id: world.exchanges.B }, clientAmount: 50, user: { id: client.id } }),
  );
  orders.noClient = await placeOrder(server, world.keys.branch, orderBody(world, { clientAmount: 70 }));
  orders.c = await placeOrder(
    server,
    world.keys.otherBranch,
    orderBody(world, { cashbox: { id: world.exchanges.C }, clientAmount: 50, user: { id: otherClient.id } }),
  );
});
afterAll(() => server?.close());

const search = (who: StaffName, q: string) =>
  call(server, 'GET', '/admin/orders/search', { token: tokens[who], query: { q } });
const found = async (who: StaffName, q: string) => {
  const res = await search(who, q);
  expect(res.status, res.text).toBe(200);
  return res.body.data.map((o: { id: number }) => o.id);
};

describe('GET /admin/orders/search', () => {
  it('finds by order id, hashed id, client name, email or phone, newest first', async () => {
    expect(await found('admin1', String(orders.a.id))).toContain(orders.a.id);
    expect(await found('admin1', `#${orders.a.id}`)).toContain(orders.a.id);
    expect(await found('admin1', orders.b.hashedId.toUpperCase())).toEqual([orders.b.id]);
    expect(await found('admin1', 'maria dos')).toEqual([orders.b.id, orders.a.id]);
    expect(await found('admin1', 'MARIA@EXAMPLE')).toEqual([orders.b.id, orders.a.id]);
    expect(await found('admin1', '911 222 333')).toEqual([orders.b.id, orders.a.id]);
    const first = (await search('admin1', 'maria@example.com')).body.data[0];
    expect(first).toMatchObject({
      id: orders.b.id,
      status: 'ORDERINIT',
      branchId: world.branches.b1,
      cashbox: { id: world.exchanges.B },
    });
    expect(first.client).toEqual({
      id: client.id,
      name: 'Maria Dos_Santos',
      email: 'maria@example.com',
      phone: '+351911222333',
    });
    expect((await search('admin1', String(orders.noClient.id))).body.data[0].client).toBeNull();
  });

  it('takes the text literally: LIKE wildcards match only themselves', async () => {
    expect(await found('admin1', '%')).toEqual([]);
    // As a pattern, each _ would match one character of "Dos_Santos".
    expect(await found('admin1', 'Do__ant')).toEqual([]);
    expect(await found('admin1', 'Dos_')).toEqual([orders.b.id, orders.a.id]);
  });

  it("never finds an order outside the caller's branch or exchanges", async () => {
    expect(await found('operatorA', 'maria')).toEqual([orders.a.id]);
    expect(await found('operatorB', 'maria')).toEqual([orders.b.id]);
    expect(await found('admin2', 'maria')).toEqual([orders.c.id]);
    expect(await found('admin2', orders.a.hashedId)).toEqual([]);
    expect(await found('operatorA', String(orders.b.id))).toEqual([]);
    expect(await found('superadmin', 'maria')).toEqual([orders.c.id, orders.b.id, orders.a.id]);
  });

  it('refuses an empty text (400), a caller without orders:read (403) and no token (401)', async () => {
    for (const q of ['', '   ']) {
      const res = await search('admin1', q);
      expect(res.status).toBe(400);
      expect(res.body.errors).toHaveProperty('q');
    }
    const blind = await server.db
      .insertInto('staff_users')
      .values({
        email: 'blind@test.local',
        password_hash: 'x',
        role: 'operator',
        branch_id: world.branches.b1,
        permissions: [],
        updated_at: new Date(),
      })
      .returning('id')
      .executeTakeFirstOrThrow();
    const token = (await server.ctx.tokens.sign(blind.id)).accessToken;
    expect((await call(server, 'GET', '/admin/orders/search', { token, query: { q: 'maria' } })).status).toBe(403);
    expect((await call(server, 'GET', '/admin/orders/search', { query: { q: 'maria' } })).status).toBe(401);
  });

  it('finds by id alone and shows no client to a caller without clients:read', async () => {
    const token = await ordersOnlyToken();
    const res = await call(server, 'GET', '/admin/orders/search', { token, query: { q: String(orders.a.id) } });
    expect(res.status).toBe(200);
    expect(res.body.data.map((o: { id: number; client: unknown }) => [o.id, o.client])).toEqual([[orders.a.id, null]]);
    // A client's name, email or phone finds nothing: which orders they find would say who the clients are.
    for (const q of ['maria', 'maria@example.com', '911222333']) {
      expect((await call(server, 'GET', '/admin/orders/search', { token, query: { q } })).body.data).toEqual([]);
    }
  });
});

describe('GET /admin/orders', () => {
  const listed = async (token: string) => {
    const res = await call(server, 'GET', '/admin/orders', { token, query: { limit: 100 } });
    expect(res.status, res.text).toBe(200);
    return new Map(res.body.data.map((o: { id: number; client: unknown }) => [o.id, o.client]));
  };

  it('names each order\'s client, as the search does, so a list need not show "client #7"', async () => {
    const clients = await listed(tokens.admin1);
    const maria = { id: client.id, name: 'Maria Dos_Santos', email: 'maria@example.com', phone: '+351911222333' };
    expect(clients.get(orders.a.id)).toEqual(maria);
    expect(clients.get(orders.b.id)).toEqual(maria);
    expect(clients.get(orders.noClient.id)).toBeNull();
    expect(clients.has(orders.c.id)).toBe(false);
    expect((await listed(tokens.admin2)).get(orders.c.id)).toMatchObject({ id: otherClient.id, name: 'Maria Other' });
  });

  it('names no client to a caller without clients:read', async () => {
    const clients = await listed(await ordersOnlyToken());
    expect(clients.get(orders.a.id)).toBeNull();
    expect([...clients.values()].every((c) => c === null)).toBe(true);
  });
});

/** An operator on exchange A who may read orders but not clients. */
let ordersOnly: string | undefined;
async function ordersOnlyToken(): Promise<string> {
  if (ordersOnly) return ordersOnly;
  const row = await server.db
    .insertInto('staff_users')
    .values({
      email: 'orders-only@test.local',
      password_hash: 'x',
      role: 'operator',
      branch_id: world.branches.b1,
      permissions: ['orders:read'],
      updated_at: new Date(),
    })
    .returning('id')
    .executeTakeFirstOrThrow();
  await server.db
    .insertInto('staff_user_exchanges')
    .values({ staff_user_id: row.id, exchange_id: world.exchanges.A })
    .execute();
  ordersOnly = (await server.ctx.tokens.sign(row.id)).accessToken;
  return ordersOnly;
}

describe('GET /admin/orders/{id}/client', () => {
  it('shows the client of an order to whoever may read the order', async () => {
    for (const who of ['admin1', 'operatorB', 'superadmin'] as const) {
      const res = await call(server, 'GET', `/admin/orders/${orders.b.id}/client`, { token: tokens[who] });
      expect(res.status).toBe(200);
      expect(res.body).toMatchObject({
        id: client.id,
        firstName: 'Maria',
        lastName: 'Dos_Santos',
        email: 'maria@example.com',
        phone: '+351911222333',
      });
    }
  });

  it('is 404 for an order without a client, out of scope or missing', async () => {
    const notFound = async (who: StaffName, id: number) => {
      const res = await call(server, 'GET', `/admin/orders/${id}/client`, { token: tokens[who] });
      expect(res.status).toBe(404);
      expect(res.body.errors).toEqual({ client: 'notFound' });
    };
    await notFound('admin1', orders.noClient.id);
    await notFound('operatorA', orders.b.id);
    await notFound('admin2', orders.a.id);
    await notFound('admin1', orders.c.id);
    await notFound('superadmin', 999999);
    expect((await call(server, 'GET', `/admin/orders/${orders.a.id}/client`)).status).toBe(401);
  });

  it('is 403 for a caller who may read the order but not clients', async () => {
    const res = await call(server, 'GET', `/admin/orders/${orders.a.id}/client`, { token: await ordersOnlyToken() });
    expect(res.status).toBe(403);
    expect(res.body.message).toBe('This staff user lacks the clients:read permission');
  });
});
