import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { call, type TestServer } from '../../helpers/server.js';
import type { World } from '../../helpers/world.js';
import { orderBody, placeOrder, staffToken } from './support.js';
import { startWorld } from '../../helpers/fixture.js';

let server: TestServer;
let world: World;

beforeAll(async () => ({ server, world } = await startWorld()));
afterAll(() => server?.close());

/** Every order is at exchange A of branch 1 and made by the branch key; each case gets its own. */
const newOrder = async () => (await placeOrder(server, world.keys.branch, orderBody(world))).id;
const NOT_FOUND = { statusCode: 404, error: 'Not Found', errors: { order: 'notFound' } };

/** The order is exactly as created: still ORDERINIT, one history row. */
async function untouched(id: number) {
  const row = await server.db.selectFrom('orders').select('status').where('id', '=', id).executeTakeFirstOrThrow();
  const history = await server.db.selectFrom('order_status_history').select('id').where('order_id', '=', id).execute();
  expect([row.status, history.length]).toEqual(['ORDERINIT', 1]);
}

type Key = 'operatorA' | 'operatorB' | 'branch' | 'public' | 'otherBranch';
const KEYS: Key[] = ['operatorA', 'operatorB', 'branch', 'public', 'otherBranch'];

// Expected status per endpoint for: operator of A, operator of B, branch key, public key, key of another branch.
// A cashbox out of scope in a body is a 400 {cashbox: notFound} (docs/decisions.md, "Orders"), never a created order.
const MATRIX: Record<string, Record<Key, number>> = {
  'POST /partner/orders': { operatorA: 201, operatorB: 400, branch: 201, public: 403, otherBranch: 400 },
  'GET /partner/orders': { operatorA: 200, operatorB: 200, branch: 200, public: 403, otherBranch: 200 },
  'GET /partner/orders/{id}': { operatorA: 200, operatorB: 404, branch: 200, public: 403, otherBranch: 404 },
  'POST /partner/orders/{id}/cancel': { operatorA: 200, operatorB: 404, branch: 200, public: 403, otherBranch: 404 },
};
const VISIBLE: Record<Key, boolean> = {
  operatorA: true,
  operatorB: false,
  branch: true,
  public: false,
  otherBranch: false,
};

const cases = Object.entries(MATRIX).flatMap(([endpoint, row]) =>
  KEYS.map((key) => [endpoint, key, row[key]] as const),
);

describe('partner order endpoints × keys', () => {
  it.each(cases)('%s with %s → %i', async (endpoint, key, expected) => {
    const id = await newOrder();
    const k = world.keys[key];
    switch (endpoint) {
      case 'POST /partner/orders': {
        const before = (await server.db.selectFrom('orders').select('id').execute()).length;
        const res = await call(server, 'POST', '/partner/orders', { key: k, body: orderBody(world) });
        expect(res.status).toBe(expected);
        if (expected === 400) expect(res.body.errors).toEqual({ cashbox: 'notFound' });
        expect((await server.db.selectFrom('orders').select('id').execute()).length).toBe(
          before + (expected === 201 ? 1 : 0),
        );
        break;
      }
      case 'GET /partner/orders': {
        const res = await call(server, 'GET', '/partner/orders', { key: k, query: { limit: 100 } });
        expect(res.status).toBe(expected);
        if (expected === 200) {
          const ids = res.body.data.map((o: { id: number }) => o.id);
          expect(ids.includes(id)).toBe(VISIBLE[key]);
          if (!VISIBLE[key])
            expect(
              res.body.data.filter((o: { cashbox: { id: number } }) => o.cashbox.id === world.exchanges.A),
            ).toEqual([]);
        }
        break;
      }
      case 'GET /partner/orders/{id}': {
        const res = await call(server, 'GET', `/partner/orders/${id}`, { key: k });
        expect(res.status).toBe(expected);
        if (expected === 200) expect(res.body.id).toBe(id);
        if (expected === 404) expect(res.body).toEqual(NOT_FOUND);
        break;
      }
      case 'POST /partner/orders/{id}/cancel': {
        const res = await call(server, 'POST', `/partner/orders/${id}/cancel`, { key: k });
        expect(res.status).toBe(expected);
        if (expected === 200) expect(res.body.status).toBe('CANCEL');
        else await untouched(id);
        if (expected === 404) expect(res.body).toEqual(NOT_FOUND);
        break;
      }
    }
  });

  it('a read-only personal key reads but cannot write', async () => {
    const id = await newOrder();
    expect((await call(server, 'GET', `/partner/orders/${id}`, { key: world.keys.readOnlyA })).status).toBe(200);
    expect((await call(server, 'GET', '/partner/orders', { key: world.keys.readOnlyA })).status).toBe(200);
    expect(
      (await call(server, 'POST', '/partner/orders', { key: world.keys.readOnlyA, body: orderBody(world) })).status,
    ).toBe(403);
    expect((await call(server, 'POST', `/partner/orders/${id}/cancel`, { key: world.keys.readOnlyA })).status).toBe(
      403,
    );
    await untouched(id);
  });
});

type Staff = 'operatorA' | 'operatorB' | 'readOnlyA' | 'admin1' | 'admin2' | 'superadmin';
const STAFF: Staff[] = ['operatorA', 'operatorB', 'readOnlyA', 'admin1', 'admin2', 'superadmin'];
const ADMIN_MATRIX: Record<string, Record<Staff, number>> = {
  'GET /admin/orders/{id}': {
    operatorA: 200,
    operatorB: 404,
    readOnlyA: 200,
    admin1: 200,
    admin2: 404,
    superadmin: 200,
  },
  'POST /admin/orders/{id}/status': {
    operatorA: 200,
    operatorB: 404,
    readOnlyA: 403,
    admin1: 200,
    admin2: 404,
    superadmin: 200,
  },
  'GET /admin/orders': { operatorA: 200, operatorB: 200, readOnlyA: 200, admin1: 200, admin2: 200, superadmin: 200 },
};
const STAFF_SEES: Record<Staff, boolean> = {
  operatorA: true,
  operatorB: false,
  readOnlyA: true,
  admin1: true,
  admin2: false,
  superadmin: true,
};
const adminCases = Object.entries(ADMIN_MATRIX).flatMap(([endpoint, row]) =>
  STAFF.map((who) => [endpoint, who, row[who]] as const),
);

describe('staff order endpoints × staff users', () => {
  it.each(adminCases)('%s by %s → %i', async (endpoint, who, expected) => {
    const id = await newOrder();
    const token = await staffToken(server, world.staff[who].id);
    if (endpoint === 'GET /admin/orders') {
      const res = await call(server, 'GET', '/admin/orders', { token, query: { limit: 100 } });
      expect(res.status).toBe(expected);
      expect(res.body.data.some((o: { id: number }) => o.id === id)).toBe(STAFF_SEES[who]);
      return;
    }
    const res =
      endpoint === 'GET /admin/orders/{id}'
        ? await call(server, 'GET', `/admin/orders/${id}`, { token })
        : await call(server, 'POST', `/admin/orders/${id}/status`, { token, body: { status: 'CLIENTPAYMENTWAIT' } });
    expect(res.status).toBe(expected);
    if (expected === 404) expect(res.body).toEqual(NOT_FOUND);
    if (expected === 200) expect(res.body.id).toBe(id);
    if (endpoint.startsWith('POST') && expected !== 200) await untouched(id);
  });

  it('staff endpoints refuse API keys and missing tokens (401)', async () => {
    const id = await newOrder();
    expect((await call(server, 'GET', `/admin/orders/${id}`, { key: world.keys.branch })).status).toBe(401);
    expect((await call(server, 'POST', `/admin/orders/${id}/status`, { body: { status: 'CANCEL' } })).status).toBe(401);
    await untouched(id);
  });
});
