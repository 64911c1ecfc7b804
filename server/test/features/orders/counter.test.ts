import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { call, type TestServer } from '../../helpers/server.js';
import type { StaffName } from '../../helpers/staff.js';
import type { World } from '../../helpers/world.js';
import { startWorld } from '../../helpers/fixture.js';
import { orderBody, recordedEvents, subscribeBranch } from './support.js';

let server: TestServer;
let world: World;
let tokens: Record<StaffName, string>;
let webhookId: string;

beforeAll(async () => {
  ({ server, world, tokens } = await startWorld());
  webhookId = await subscribeBranch(server.db, world.branches.b1);
});
afterAll(() => server?.close());

const counter = (body: unknown, token = tokens.operatorA) => call(server, 'POST', '/admin/orders', { token, body });
const partner = (body: unknown, key = world.keys.operatorA) => call(server, 'POST', '/partner/orders', { key, body });

/** What two orders of one body share: everything but who placed them, their ids and their times. */
function priced(order: Record<string, unknown>) {
  const { id, hashedId, createdAt, updatedAt, expiresAt, source, ...rest } = order;
  // createdAt is the database's clock at the transaction's start, expiresAt the service's when it priced: whole seconds.
  const window =
    expiresAt === null ? null : Math.round((Date.parse(expiresAt as string) - Date.parse(createdAt as string)) / 1000);
  return { ...rest, window, idShape: typeof id, hashedIdShape: /^[0-9a-f]{24}$/.test(hashedId as string), source };
}

describe('POST /admin/orders: a counter order is a partner order placed by a cashier', () => {
  const bodies = (): Record<string, Record<string, unknown>> => ({
    'offer, client amount': orderBody(world, { clientAmount: 123.45 }),
    'offer, exchange amount (rounded up)': orderBody(world, { clientAmount: undefined, exchangeAmount: 77.77 }),
    'reverse offer (EUR→USD at A prices USD→EUR)': orderBody(world, {
      currency1: { id: world.currencies.EUR },
      currency2: { id: world.currencies.USD },
      clientAmount: 50,
    }),
    'tiny rate, 8 decimals': orderBody(world, {
      currency1: { id: world.currencies.USDT },
      currency2: { id: world.currencies.BTC },
      clientAmount: 1234.567891,
    }),
    finop: orderBody(world, { operationType: 'finop', clientAmount: 10.5, exchangeAmount: 9.99 }),
    'with a payment method and notes': orderBody(world, {
      paymentMethodSource: { id: world.paymentMethods.cash1 },
      comment: 'walk-in',
      clientComment: 'Ünïcode ‮',
    }),
  });

  const names = [
    'offer, client amount',
    'offer, exchange amount (rounded up)',
    'reverse offer (EUR→USD at A prices USD→EUR)',
    'tiny rate, 8 decimals',
    'finop',
    'with a payment method and notes',
  ];
  it.each(names)('%s: field for field what the partner order of the same body is', async (name) => {
    const body = bodies()[name]!;
    const p = await partner(body);
    expect(p.status, p.text).toBe(201);
    const c = await counter(body);
    expect(c.status, c.text).toBe(201);
    expect(p.body.source).toBe('partner');
    expect(c.body.source).toBe('counter');
    expect(c.body.createdBy).toEqual({ id: world.staff.operatorA.id, email: world.staff.operatorA.email });
    // The raw JSON too: the amounts to the last decimal, as written.
    const amounts = (text: string) => /"clientAmount":[^,]+,"exchangeAmount":[^,]+/.exec(text)?.[0];
    expect(amounts(c.text)).toBe(amounts(p.text));
    const partnerView = await call(server, 'GET', `/admin/orders/${p.body.id}`, { token: tokens.operatorA });
    expect(partnerView.body.createdBy).toBeNull();
    const { history: ph, createdBy: pb, ...partnerOrder } = partnerView.body;
    const { history: ch, createdBy: cb, ...counterOrder } = c.body;
    expect({ ...priced(counterOrder), source: 'same' }).toEqual({ ...priced(partnerOrder), source: 'same' });
    expect(c.body.id).not.toBe(p.body.id);
    expect(ch).toEqual([
      {
        fromStatus: null,
        toStatus: 'ORDERINIT',
        actor: {
          type: 'staff',
          apiKeyId: null,
          staffUserId: world.staff.operatorA.id,
          staffEmail: world.staff.operatorA.email,
        },
        comment: null,
        createdAt: expect.any(String),
      },
    ]);
    expect([ph.length, pb, cb]).toEqual([1, null, c.body.createdBy]);
  });

  it('expires after the payment window like any order', async () => {
    const c = await counter(orderBody(world));
    expect(Math.round((Date.parse(c.body.expiresAt) - Date.parse(c.body.createdAt)) / 1000)).toBe(3600);
  });

  it("is listed on GET /admin/orders (filter source), read by partners with its source, and announced to the office's webhooks", async () => {
    const c = await counter(orderBody(world, { clientAmount: 42 }));
    expect(c.status, c.text).toBe(201);
    const listed = await call(server, 'GET', '/admin/orders', {
      token: tokens.admin1,
      query: { filter: JSON.stringify({ source: 'counter' }), sort: '[["id","DESC"]]', limit: 100 },
    });
    expect(listed.status, listed.text).toBe(200);
    expect(listed.body.data.length).toBeGreaterThan(0);
    expect(listed.body.data.every((o: { source: string }) => o.source === 'counter')).toBe(true);
    expect(listed.body.data[0]).toMatchObject({ id: c.body.id, source: 'counter', createdBy: c.body.createdBy });
    const partners = await call(server, 'GET', '/admin/orders', {
      token: tokens.admin1,
      query: { filter: JSON.stringify({ source: 'partner' }), limit: 100 },
    });
    expect(partners.body.data.some((o: { source: string }) => o.source !== 'partner')).toBe(false);
    const bad = await call(server, 'GET', '/admin/orders', {
      token: tokens.admin1,
      query: { filter: JSON.stringify({ source: 'walk-in' }) },
    });
    expect(bad.status).toBe(400);

    const read = await call(server, 'GET', `/partner/orders/${c.body.id}`, { key: world.keys.branch });
    expect(read.body).toMatchObject({ id: c.body.id, source: 'counter' });
    expect(read.body.createdBy).toBeUndefined();

    const events = await recordedEvents(server.db, webhookId, c.body.id);
    expect(events.map((e) => e.event)).toEqual(['order.created']);
    expect(events[0]!.body.data).toEqual({
      id: c.body.id,
      status: 'ORDERINIT',
      amountSource: '42',
      amountDest: '38.7',
      expiresAt: c.body.expiresAt,
    });
  });

  it('is in the audit log as order.create by its cashier', async () => {
    const c = await counter(orderBody(world, { clientAmount: 11 }));
    const row = await server.db
      .selectFrom('audit_log')
      .selectAll()
      .where('action', '=', 'order.create')
      .where('entity_id', '=', String(c.body.id))
      .executeTakeFirstOrThrow();
    expect(row).toMatchObject({ entity_type: 'order', staff_user_id: world.staff.operatorA.id });
  });

  it('serves a client registered at the counter (POST /admin/clients)', async () => {
    const client = await call(server, 'POST', '/admin/clients', {
      token: tokens.operatorA,
      body: { firstName: 'Walk', lastName: 'In', email: 'walk.in@example.com', phone: '+4915112345678' },
    });
    expect(client.status, client.text).toBe(201);
    expect(client.body).toMatchObject({ firstName: 'Walk', branchId: world.branches.b1 });
    const again = await call(server, 'POST', '/admin/clients', {
      token: tokens.operatorA,
      body: { firstName: 'Walk', lastName: 'In', email: 'WALK.IN@example.com', phone: '+4915112345678' },
    });
    expect([again.status, again.body.errors]).toEqual([400, { email: 'alreadyExists' }]);
    const c = await counter(orderBody(world, { user: { id: client.body.id } }));
    expect(c.status, c.text).toBe(201);
    expect(c.body.user).toEqual({ id: client.body.id });
    const refused = await call(server, 'POST', '/admin/clients', {
      token: tokens.readOnlyA,
      body: { firstName: 'No', lastName: 'Write', email: 'no.write@example.com', phone: '+4915112345679' },
    });
    expect(refused.status).toBe(403);
  });

  it('refuses what the partner route refuses: the cover check', async () => {
    const { B } = world.exchanges;
    const { USD, EUR } = world.currencies;
    const deposit = await call(server, 'POST', `/admin/exchanges/${B}/cash/${EUR}/movements`, {
      token: tokens.admin1,
      body: { kind: 'deposit', amount: 20 },
    });
    expect(deposit.status, deposit.text).toBe(201);
    const body = orderBody(world, { cashbox: { id: B }, currency1: { id: USD }, currency2: { id: EUR } });
    const refused = await counter({ ...body, clientAmount: 100 }, tokens.operatorB);
    expect([refused.status, refused.body.errors]).toEqual([400, { exchangeAmount: 'insufficientReserve' }]);
    expect(refused.body.message).toContain('20 EUR is available');
    const fits = await counter({ ...body, clientAmount: 10 }, tokens.operatorB);
    expect(fits.status, fits.text).toBe(201);
  });

  it.each([
    ['both amounts', { exchangeAmount: 5 }, { exchangeAmount: 'notAllowed' }],
    ['an unknown field', { price: 1 }, undefined],
    ['a negative amount', { clientAmount: -1 }, undefined],
    ['the same currency twice', { currency2: { id: 0 } }, undefined],
    ['an amount below the minimum', { clientAmount: 1 }, { clientAmount: 'belowMinimum' }],
  ])('refuses %s with 400', async (_name, overrides, errors) => {
    const body = orderBody(world, overrides);
    if (_name === 'the same currency twice') body.currency2 = body.currency1;
    const res = await counter(body);
    expect(res.status, res.text).toBe(400);
    if (errors) expect(res.body.errors).toMatchObject(errors);
  });

  it('is refused outside the caller’s scope, without a permission, and without a token; nothing is created', async () => {
    const before = await server.db
      .selectFrom('orders')
      .select(server.db.fn.countAll<string>().as('n'))
      .executeTakeFirst();
    const atA = orderBody(world);
    // An exchange out of scope is not found, as for a partner's key (a body reference: 400 naming it).
    for (const token of [tokens.operatorB, tokens.admin2]) {
      const res = await counter(atA, token);
      expect([res.status, res.body.errors]).toEqual([400, { cashbox: 'notFound' }]);
    }
    expect((await counter(atA, tokens.readOnlyA)).status).toBe(403);
    expect((await call(server, 'POST', '/admin/orders', { body: atA })).status).toBe(401);
    // A partner's key is no staff token.
    expect((await call(server, 'POST', '/admin/orders', { key: world.keys.admin1, body: atA })).status).toBe(401);
    const after = await server.db
      .selectFrom('orders')
      .select(server.db.fn.countAll<string>().as('n'))
      .executeTakeFirst();
    expect(after).toEqual(before);
    const superadmin = await counter(atA, tokens.superadmin);
    expect(superadmin.status, superadmin.text).toBe(201);
    expect(superadmin.body.branchId).toBe(world.branches.b1);
  });
});
