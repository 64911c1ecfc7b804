import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { call, type TestServer } from '../helpers/server.js';
import type { StaffName } from '../helpers/staff.js';
import type { World } from '../helpers/world.js';
import { startWorld } from '../helpers/fixture.js';

/**
 * Every back-office route of this feature against every kind of caller: the role check (403), the branch
 * check (404 for another branch's resource; a body reference to one is `notFound`) and authentication (401).
 */
let server: TestServer;
let world: World;
let tokens: Record<StaffName, string>;

beforeAll(async () => ({ server, world, tokens } = await startWorld()));
afterAll(() => server?.close());

let n = 0;
const unique = () => `${Date.now().toString(36)}${++n}`;
// Fresh currency pairs, so that each successful offer creation is a new offer.
const pairs = (w: World) => [
  [w.currencies.EUR, w.currencies.USD],
  [w.currencies.USD, w.currencies.BTC],
  [w.currencies.JPY, w.currencies.EUR],
  [w.currencies.JPY, w.currencies.USD],
  [w.currencies.BTC, w.currencies.EUR],
  [w.currencies.USDT, w.currencies.USD],
];
let pairIndex = 0;
const offerBody = (exchangeId: number) => {
  const [c1, c2] = pairs(world)[pairIndex++ % 6];
  return { exchangeId, currency1Id: c1, currency2Id: c2, rate: '1.5', maxAmount: 100 };
};

type Caller = 'superadmin' | 'admin1' | 'admin2' | 'operatorA' | 'readOnlyA';
interface Route {
  name: string;
  method: string;
  path: (w: World) => string;
  body?: (caller: Caller) => Record<string, unknown>;
  expect: Record<Caller, number>;
}

const SUPER_ONLY = (ok: number) => ({ superadmin: ok, admin1: 403, admin2: 403, operatorA: 403, readOnlyA: 403 });
const BRANCH_1 = (ok: number) => ({ superadmin: ok, admin1: ok, admin2: 404, operatorA: 403, readOnlyA: 403 });
const ANY_ADMIN = (ok: number) => ({ superadmin: ok, admin1: ok, admin2: ok, operatorA: 403, readOnlyA: 403 });

const ROUTES: Route[] = [
  {
    name: 'create a branch',
    method: 'POST',
    path: () => '/admin/branches',
    body: () => ({ name: `Branch ${unique()}` }),
    expect: SUPER_ONLY(201),
  },
  { name: 'list branches', method: 'GET', path: () => '/admin/branches', expect: SUPER_ONLY(200) },
  {
    name: 'create an exchange in branch 1',
    method: 'POST',
    path: () => '/admin/exchanges',
    body: () => ({ branchId: world.branches.b1, name: `Desk ${unique()}` }),
    expect: { superadmin: 201, admin1: 201, admin2: 400, operatorA: 403, readOnlyA: 403 },
  },
  { name: 'list exchanges', method: 'GET', path: () => '/admin/exchanges', expect: ANY_ADMIN(200) },
  {
    name: 'read an exchange of branch 1',
    method: 'GET',
    path: (w) => `/admin/exchanges/${w.exchanges.A}`,
    expect: BRANCH_1(200),
  },
  {
    name: 'change an exchange of branch 1',
    method: 'PATCH',
    path: (w) => `/admin/exchanges/${w.exchanges.B}`,
    body: () => ({ city: 'Beta' }),
    expect: BRANCH_1(200),
  },
  {
    name: 'read a missing exchange',
    method: 'GET',
    path: () => '/admin/exchanges/999999',
    expect: { ...BRANCH_1(404), superadmin: 404 },
  },
  {
    name: 'create a currency',
    method: 'POST',
    path: () => '/admin/currencies',
    body: () => ({ ticker: `T${n++}`.slice(0, 10).toUpperCase(), name: 'Token', decimals: 4 }),
    expect: SUPER_ONLY(201),
  },
  { name: 'list currencies', method: 'GET', path: () => '/admin/currencies', expect: ANY_ADMIN(200) },
  {
    name: 'change a currency',
    method: 'PATCH',
    path: (w) => `/admin/currencies/${w.currencies.JPY}`,
    body: () => ({ name: 'Japanese Yen' }),
    expect: SUPER_ONLY(200),
  },
  {
    name: 'create an offer at an exchange of branch 1',
    method: 'POST',
    path: () => '/admin/offers',
    body: () => offerBody(world.exchanges.A),
    expect: { superadmin: 201, admin1: 201, admin2: 400, operatorA: 403, readOnlyA: 403 },
  },
  { name: 'list offers', method: 'GET', path: () => '/admin/offers', expect: ANY_ADMIN(200) },
  {
    name: 'change an offer of branch 1',
    method: 'PATCH',
    path: (w) => `/admin/offers/${w.offers.aUsdEur}`,
    body: () => ({ rate: '0.92' }),
    expect: BRANCH_1(200),
  },
  {
    name: 'create a payment method in branch 1',
    method: 'POST',
    path: () => '/admin/payment-methods',
    body: () => ({ branchId: world.branches.b1, name: `Method ${unique()}` }),
    expect: { superadmin: 201, admin1: 201, admin2: 400, operatorA: 403, readOnlyA: 403 },
  },
  { name: 'list payment methods', method: 'GET', path: () => '/admin/payment-methods', expect: ANY_ADMIN(200) },
  {
    name: 'create a staff user in branch 1',
    method: 'POST',
    path: () => '/admin/staff',
    body: () => ({
      email: `op-${unique()}@test.local`,
      password: 'a-long-password',
      role: 'operator',
      branchId: world.branches.b1,
    }),
    expect: { superadmin: 201, admin1: 201, admin2: 400, operatorA: 403, readOnlyA: 403 },
  },
  { name: 'list staff', method: 'GET', path: () => '/admin/staff', expect: ANY_ADMIN(200) },
  {
    name: 'read a staff user of branch 1',
    method: 'GET',
    path: (w) => `/admin/staff/${w.staff.operatorB.id}`,
    expect: BRANCH_1(200),
  },
  {
    name: 'change a staff user of branch 1',
    method: 'PATCH',
    path: (w) => `/admin/staff/${w.staff.operatorB.id}`,
    body: () => ({ permissions: ['orders:read'] }),
    expect: BRANCH_1(200),
  },
  {
    name: 'read the superadmin',
    method: 'GET',
    path: (w) => `/admin/staff/${w.staff.superadmin.id}`,
    expect: { ...BRANCH_1(404), superadmin: 200 },
  },
];

const CALLERS: Caller[] = ['superadmin', 'admin1', 'admin2', 'operatorA', 'readOnlyA'];
const CASES = ROUTES.flatMap((r) => CALLERS.map((c) => [r.name, c, r] as const));

describe('back-office access', () => {
  it.each(CASES)('%s as %s', async (_name, caller, route) => {
    const res = await call(server, route.method, route.path(world), {
      token: tokens[caller],
      body: route.body?.(caller),
    });
    expect({ status: res.status, body: res.body }).toMatchObject({ status: route.expect[caller] });
    if (res.status === 403) expect(res.body).toMatchObject({ statusCode: 403, error: 'Forbidden' });
    if (res.status === 404) expect(res.body).toMatchObject({ statusCode: 404, errors: expect.any(Object) });
    if (res.status === 400) expect(Object.values(res.body.errors)).toContain('notFound');
  });

  it.each(ROUTES.map((r) => [r.name, r] as const))('%s without a token is 401', async (_name, route) => {
    const res = await call(server, route.method, route.path(world), { body: route.body?.('superadmin') });
    expect(res.status).toBe(401);
  });

  it.each(ROUTES.map((r) => [r.name, r] as const))(
    '%s with an API key instead of a token is 401',
    async (_name, route) => {
      const res = await call(server, route.method, route.path(world), {
        key: world.keys.branch,
        body: route.body?.('superadmin'),
      });
      expect(res.status).toBe(401);
    },
  );
});
